import { expect } from 'chai';
import { validateFlowFile } from '../../src/flow';
import { checkCron, canonicalTimeZone } from '../../src/flow/cron';
import { parseDuration } from '../../src/flow/duration';
import { extractSteps } from '../../src/flow/markdown-steps';
import { flow, render, writeFlow } from './helpers';

describe('flow: Markdown step blocks (CommonMark fences)', () => {
  it('finds steps in lists, in block quotes, with tildes and longer fences; yaml without step is documentation', () => {
    const body = [
      '- item', //1
      '', //2
      '  ```yaml step', //3
      '  id: in_list', //4
      '  ```', //5
      '', //6
      '~~~yaml step', //7
      'id: tilde', //8
      '~~~', //9
      '', //10
      '````yaml step', //11
      'id: long', //12
      'x: |', //13
      '  ```', //14
      '  inner', //15
      '  ```', //16
      '````', //17
      '', //18
      '```yaml', //19
      'id: doc_only', //20
      '```', //21
      '', //22
      '    ```yaml step', //23
      '    indented code, not a fence', //24
    ].join('\n');
    const r = extractSteps(body, 10);
    expect(r.blocks.map((b) => [b.fenceLine, b.firstLine, b.yaml.split('\n')[0]])).to.deep.equal([
      [12, 13, 'id: in_list'],
      [16, 17, 'id: tilde'],
      [20, 21, 'id: long'],
    ]);
    expect(r.blocks[2]?.yaml).to.contain('```\n  inner');
    expect(r.doc).to.contain('id: doc_only');
    expect(r.doc).to.not.contain('in_list');
  });

  it('line numbers of steps inside lists point into the file', () => {
    const f = writeFlow(flow('', '1. first\n\n   ```yaml step\n   id: a\n   type: log\n   mesage: x\n   ```\n'));
    const r = validateFlowFile(f);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics.map(render)).to.deep.equal([
      `${f}:11: step 'a': missing required field 'message' (any value)`,
      `${f}:13: step 'a': unknown field 'mesage' (did you mean 'message'?)`,
    ]);
  });
});

describe('flow: cron, time zones, durations', () => {
  it('accepts 5 and 6 field expressions with ranges, steps, lists and names', () => {
    for (const c of ['* * * * *', '*/15 9-17 * * MON-FRI', '0 0 1,15 * *', '30 7 * JAN-MAR,DEC 1-5', '0 */5 * * * *', '0 0 ? * SUN', '5-59/10 * * * 7']) {
      expect(checkCron(c), c).to.deep.equal([]);
    }
  });

  it('refuses bad field counts, ranges, steps and names with the field named', () => {
    expect(checkCron('* * * *')).to.deep.equal(['a cron expression has 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), got 4']);
    expect(checkCron('60 * * * *')).to.deep.equal(["minute field '60': 60 is out of range (0-59)"]);
    expect(checkCron('* 24 * * *')).to.deep.equal(["hour field '24': 24 is out of range (0-23)"]);
    expect(checkCron('* * 0 * *')).to.deep.equal(["day of month field '0': 0 is out of range (1-31)"]);
    expect(checkCron('* * * 13 *')).to.deep.equal(["month field '13': 13 is out of range (1-12)"]);
    expect(checkCron('* * * * FUNDAY')).to.deep.equal(["day of week field 'FUNDAY': 'FUNDAY' is not a number (0-7 or SUN-SAT)"]);
    expect(checkCron('*/0 * * * *')).to.deep.equal(["minute field '*/0': the step in '*/0' must be a positive integer"]);
    expect(checkCron('5-1 * * * *')).to.deep.equal(["minute field '5-1': the range 5-1 runs backwards"]);
    expect(checkCron('@daily')).to.deep.equal(["'@daily' is not supported; write the 5 fields instead: '0 0 * * *'"]);
    expect(checkCron('1,,2 * * * *')).to.deep.equal(["minute field '1,,2': empty list item"]);
  });

  it('time zones are IANA names', () => {
    expect(canonicalTimeZone('Europe/Berlin')).to.equal('Europe/Berlin');
    expect(canonicalTimeZone('UTC')).to.equal('UTC');
    expect(canonicalTimeZone('Mars/Olympus')).to.equal(undefined);
    expect(canonicalTimeZone('+02:00')).to.equal(undefined);
  });

  it('durations', () => {
    const ms = (s: string): number | string => {
      const d = parseDuration(s);
      return d.ok ? d.ms : d.message;
    };
    expect(ms('90s')).to.equal(90_000);
    expect(ms('15m')).to.equal(900_000);
    expect(ms('2h')).to.equal(7_200_000);
    expect(ms('1d')).to.equal(86_400_000);
    expect(ms('250ms')).to.equal(250);
    expect(ms('PT2H')).to.equal(7_200_000);
    expect(ms('P1DT12H')).to.equal(129_600_000);
    expect(ms('PT1.5S')).to.equal(1500);
    expect(ms('0s')).to.equal('a duration must be longer than zero');
    expect(ms('P')).to.match(/is not a duration/);
    expect(ms('PT')).to.match(/is not a duration/);
    expect(ms('2 weeks')).to.match(/^'2 weeks' is not a duration/);
  });
});
