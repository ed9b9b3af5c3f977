import { expect } from 'chai';
import { compileFlowFile, validateFlowFile } from '../../src/flow';
import { flow, step, writeFlow } from './helpers';

/**
 * A front-matter key that fails its codec must not hide the problems of other keys, nor the
 * checks of the steps: one run reports everything, each at its own line.
 */
function compileMessages(content: string): string[] {
  const f = writeFlow(content);
  const r = compileFlowFile(f);
  expect(r.ok, 'the flow must not compile').to.equal(false);
  if (r.ok) return [];
  for (const d of r.diagnostics) expect(d.file).to.equal(f);
  return r.diagnostics.map((d) => `${d.line}: ${d.message}`);
}

function validateMessages(content: string): string[] {
  const f = writeFlow(content);
  const r = validateFlowFile(f);
  expect(r.ok, 'the flow must not validate').to.equal(false);
  return r.ok ? [] : r.diagnostics.map((d) => `${d.line}: ${d.message}`);
}

// With `flow(extra, body)` the extra front-matter lines start at line 4; with N extra lines the
// first step block's fence is at line N + 8, its `id` at N + 9, `type` at N + 10 and so on.

describe('flow: every problem is reported, a bad front-matter key hides nothing', () => {
  it('bad timeout_ms and a cron minute out of range', () => {
    const content = flow('schedule: "61 * * * *"\ntimeout_ms: fast', step('id: a\ntype: transform\nvalue: ${body.x}'));
    expect(compileMessages(content)).to.deep.equal([
      `4: front matter: 'schedule': minute field '61': 61 is out of range (0-59)`,
      `5: front matter: 'timeout_ms' must be a positive integer, got "fast"`,
    ]);
  });

  it('each of them alone gives the same message and line', () => {
    expect(compileMessages(flow('schedule: "61 * * * *"\ntimeout_ms: 100', ''))).to.deep.equal([
      `4: front matter: 'schedule': minute field '61': 61 is out of range (0-59)`,
    ]);
    expect(compileMessages(flow('schedule: "1 * * * *"\ntimeout_ms: fast', ''))).to.deep.equal([
      `5: front matter: 'timeout_ms' must be a positive integer, got "fast"`,
    ]);
  });

  it('bad concurrency and an undeclared config key in a step', () => {
    const content = flow(
      'config: [ERP_URL]\nconcurrency: 0',
      step('id: a\ntype: transform\nvalue: ${config.ERP_URLL}') + step('id: b\ntype: transform\nvalue: ${config.ERP_URL}'),
    );
    expect(compileMessages(content)).to.deep.equal([
      `5: front matter: 'concurrency' must be a positive integer, got 0`,
      `13: step 'a': 'config.ERP_URLL' is not declared: add 'ERP_URLL' to the front matter 'config' list (or did you mean 'ERP_URL'?)`,
    ]);
  });

  it('a config list with a bad key still declares its good keys for the steps', () => {
    const content = flow(
      'config: [erp_url, ERP_URL]\nsecrets: [TOKEN]',
      step('id: a\ntype: transform\nvalue: ${config.ERP_URL & secrets.TOKEN}') + step('id: b\ntype: log\nmessage: ${config.OTHER}'),
    );
    expect(compileMessages(content)).to.deep.equal([
      `4: front matter: 'config[0]' must be a key matching [A-Z][A-Z0-9_]*, got "erp_url" (for example 'ERP_URL')`,
      `19: step 'b': 'config.OTHER' is not declared: add 'OTHER' to the front matter 'config' list`,
    ]);
  });

  it('an unsupported input schema keyword and a bad retry setting', () => {
    const content = flow('input:\n  type: object\n  additionalProperties: false\nretry:\n  max_attempts: 0\n  backoff_ms: 90000', '');
    expect(compileMessages(content)).to.deep.equal([
      `6: front matter: 'input.additionalProperties': unsupported JSON Schema keyword 'additionalProperties'; supported: type, properties, required, items, enum, minimum, maximum, minLength, maxLength, pattern, title, description`,
      // The retry settings that decoded are still compared with each other (and the defaults).
      `7: front matter: 'retry.backoff_ms' (90000) is larger than 'retry.max_backoff_ms' (60000)`,
      `8: front matter: 'retry.max_attempts' must be a positive integer, got 0`,
    ]);
  });

  it('a bad output schema beside a bad input key', () => {
    const content = flow('input: [x]\noutput:\n  type: strin', '');
    expect(compileMessages(content)).to.deep.equal([
      `4: front matter: 'input' must be a map, got a list (["x"])`,
      `6: front matter: 'output.type': 'type' must be one of string, number, integer, boolean, object, array, null, got "strin" (did you mean 'string'?)`,
    ]);
  });

  it('bad dedup_window_hours and a JSONata error in a step', () => {
    const content = flow('dedup_key: body.id\ndedup_window_hours: -1', step('id: a\ntype: transform\nvalue: ${body.(}'));
    expect(compileMessages(content)).to.deep.equal([
      `5: front matter: 'dedup_window_hours' must be a positive number, got -1`,
      `13: step 'a': 'value': invalid expression \${body.(}: Expected ")" before end of expression at character 6`,
    ]);
  });

  it('a JSONata error in dedup_key beside a bad dedup setting', () => {
    const content = flow('dedup_key: "body.("\ndedup_on_failure: retyr', '');
    expect(compileMessages(content)).to.deep.equal([
      `4: front matter: 'dedup_key': invalid expression \${body.(}: Expected ")" before end of expression at character 6`,
      `5: front matter: 'dedup_on_failure' must be one of 'retry', 'absorb', got "retyr"`,
    ]);
  });

  it('a schedule map with a bad part still checks its other parts, with a missing tenant', () => {
    const content = [
      '---',
      'flow: t',
      'schedule:',
      '  cron: "* * * * * * *"',
      '  timezone: Mars/Olympus',
      '  bdy: {}',
      '---',
      '',
    ].join('\n');
    expect(compileMessages(content)).to.deep.equal([
      `2: front matter: missing required field 'tenant' (a name matching [a-z0-9][a-z0-9-]{0,62})`,
      `4: front matter: 'schedule.cron': a cron expression has 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), got 7`,
      `5: front matter: 'schedule.timezone': unknown time zone 'Mars/Olympus' (an IANA name such as 'Europe/Berlin')`,
      `6: front matter: unknown field 'schedule.bdy' (did you mean 'body'?)`,
    ]);
  });

  it('a badly written TLS path does not make tls: true steps an error too', () => {
    const content = flow(
      'tls_client_cert: ""\ntls_client_key: k.pem\nevents: oops',
      step('id: a\ntype: http\nurl: https://example.test\ntls: true\nexpect: 700'),
    );
    expect(compileMessages(content)).to.deep.equal([
      `4: front matter: 'tls_client_cert' must be a non-empty string, got ""`,
      `6: front matter: 'events' must be a list of {source, type}, got "oops"`,
      `16: step 'a': 'expect': 700 is not an HTTP status (100-599)`,
    ]);
  });

  it('validate reports every key that fails its codec, and no IR is built', () => {
    const content = flow('timeout_ms: fast\nconcurrency: -2\nmax_message_bytes: {run: 0}', step('id: a\ntype: transform\nvalue: ${steps.zz}'));
    const expected = [
      `4: front matter: 'timeout_ms' must be a positive integer, got "fast"`,
      `5: front matter: 'concurrency' must be a positive integer, got -2`,
      `6: front matter: 'max_message_bytes.run' must be a positive integer, got 0`,
      `14: step 'a': 'steps.zz' names no step`,
    ];
    expect(validateMessages(content)).to.deep.equal(expected);
    expect(compileMessages(content)).to.deep.equal(expected);
  });

  it('a flow whose keys all decode still compiles', () => {
    const f = writeFlow(flow('schedule: {cron: "0 3 * * *", timezone: Europe/Berlin}\nretry: {backoff_ms: 100}\ntimeout_ms: 5000', step('id: a\ntype: transform\nvalue: 1')));
    const r = compileFlowFile(f);
    if (!r.ok) expect.fail(r.diagnostics.map((d) => `${d.line}: ${d.message}`).join('\n'));
    expect(r.ir.schedule).to.deep.equal({ cron: '0 3 * * *', timezone: 'Europe/Berlin', body: {} });
    expect(r.ir.retry).to.deep.equal({ max_attempts: 5, backoff_ms: 100, max_backoff_ms: 60000 });
    expect(r.ir.timeout_ms).to.equal(5000);
  });
});
