import { expect } from 'chai';
import { flow, render, step, validateErrors, compileErrors, writeFlow } from './helpers';

/** Each case: file content, whether compile (not only validate) is needed, expected `line: message` (substring). */
function messages(content: string, mode: 'validate' | 'compile'): string[] {
  const f = writeFlow(content);
  const ds = mode === 'validate' ? validateErrors(f) : compileErrors(f);
  for (const d of ds) expect(d.file).to.equal(f);
  return ds.map((d) => `${d.line}: ${d.message}`);
}

describe('flow: diagnostics name the line, the offending name and the fix', () => {
  it('front matter type errors', () => {
    const m = messages(flow('concurrency: four\ntimeout_ms: 0\ndedup_memoize_response: yes\ndedup_key: ${body.id}', ''), 'validate');
    expect(m).to.deep.equal([
      `4: front matter: 'concurrency' must be a positive integer, got "four"`,
      `5: front matter: 'timeout_ms' must be a positive integer, got 0`,
      `6: front matter: 'dedup_memoize_response' must be true or false, got "yes"`,
    ]);
  });

  it('unknown front-matter key with a suggestion', () => {
    expect(messages(flow('descripton: x', ''), 'validate')).to.deep.equal([`4: front matter: unknown field 'descripton' (did you mean 'description'?)`]);
  });

  it('missing tenant and a bad flow name', () => {
    expect(messages('---\nflow: Order_Intake\n---\n', 'validate')).to.deep.equal([
      `2: front matter: missing required field 'tenant' (a name matching [a-z0-9][a-z0-9-]{0,62})`,
      `2: front matter: 'flow' must be a name matching [a-z0-9][a-z0-9-]{0,62}, got "Order_Intake" (for example 'order-intake')`,
    ]);
  });

  it('config keys: pattern, duplicates, both lists', () => {
    expect(messages(flow('config: [erp_url, A, A]\nsecrets: [A]', ''), 'validate')).to.deep.equal([
      `4: front matter: 'config[0]' must be a key matching [A-Z][A-Z0-9_]*, got "erp_url" (for example 'ERP_URL')`,
      `4: front matter: 'config' lists 'A' twice`,
      `4: front matter: 'A' is declared both in 'config' and in 'secrets'; keep it in one list`,
    ]);
  });

  it('unknown step field with a suggestion', () => {
    const m = messages(flow('', step('id: post\ntype: http\nurl: https://x\nmethd: POST')), 'validate');
    expect(m).to.deep.equal([`12: step 'post': unknown field 'methd' (did you mean 'method'?)`]);
  });

  it('unknown step type, missing id, missing type, bad id', () => {
    const m = messages(
      flow('', step('id: a\ntype: htpp\nurl: x') + step('type: log\nmessage: x') + step('id: c\nmessage: x') + step('id: Post-Order\ntype: log\nmessage: x')),
      'validate',
    );
    expect(m).to.deep.equal([
      `10: step 'a': unknown step type "htpp" (did you mean 'http'?)`,
      `15: step block of type 'log': missing 'id' (every step needs a unique id matching [a-z][a-z0-9_]*)`,
      `20: step 'c': missing 'type' (one of transform, validate, http, oauth2_token, grpc, call_flow, include, foreach, switch, enqueue, correlate_open, correlate_close, log, fail, respond)`,
      `25: step 'Post-Order': 'id' must be a step id matching [a-z][a-z0-9_]*, got "Post-Order" (for example 'post_order')`,
    ]);
  });

  it('missing required step field and wrong field type', () => {
    const m = messages(flow('', step('id: a\ntype: http\ntls: "yes"\nretry: { attempts: 0 }')), 'validate');
    expect(m).to.deep.equal([
      `9: step 'a': missing required field 'url' (a string)`,
      `11: step 'a': 'tls' must be true or false, got "yes"`,
      `12: step 'a': 'retry.attempts' must be a positive integer, got 0`,
    ]);
  });

  it('retry is only for egress steps; include takes only id, type, lib', () => {
    const m = messages(flow('', step('id: a\ntype: log\nmessage: x\nretry: { attempts: 2 }') + step('id: b\ntype: include\nlib: x\nwhen: true')), 'validate');
    expect(m[0]).to.equal(`12: step 'a': unknown field 'retry'`);
    expect(m[1]).to.equal(`18: step 'b': library 'x' cannot be found: no libraries folder was given (pass --libs <dir>)`);
    expect(m[2]).to.match(/^19: step 'b': unknown field 'when' \(an include step takes only id, type and lib/);
  });

  it('duplicate step ids name the first one', () => {
    const m = messages(flow('', step('id: a\ntype: log\nmessage: x') + step('id: a\ntype: log\nmessage: y')), 'validate');
    expect(m).to.deep.equal([`15: step 'a': the id is already used by the step at line 9; step ids must be unique in a flow`]);
  });

  it('step references: unknown, later, self, nested', () => {
    const m = messages(
      flow(
        '',
        step('id: a\ntype: transform\nvalue: ${steps.b.x}') +
          step('id: b\ntype: transform\nvalue: ${steps.b} ${steps.aa}') +
          step('id: loop\ntype: foreach\nitems: ${body}\nsteps:\n  - { id: inner, type: transform, value: "${steps.a}" }') +
          step('id: after\ntype: transform\nvalue: ${steps.inner}'),
      ),
      'validate',
    );
    expect(m).to.deep.equal([
      `11: step 'a': 'steps.b' refers to step 'b', which runs later (line 15); a step can only read the output of earlier steps`,
      `17: step 'b': 'steps.b' refers to this step itself; a step can only read the output of earlier steps`,
      `17: step 'b': 'steps.aa' names no step (did you mean 'a'?)`,
      `31: step 'after': 'steps.inner': step 'inner' (line 25) is nested inside 'loop' and is not visible here`,
    ]);
  });

  it('config and secrets references must be declared', () => {
    const m = messages(flow('config: [ERP_URL]\nsecrets: [TOKEN]', step('id: a\ntype: http\nurl: ${config.ERP_URLL}/x\nheaders: { Authorization: "${secrets.TOKEN} ${config.TOKEN} ${secrets.NOPE}" }')), 'validate');
    expect(m).to.deep.equal([
      `13: step 'a': 'config.ERP_URLL' is not declared: add 'ERP_URLL' to the front matter 'config' list (or did you mean 'ERP_URL'?)`,
      `14: step 'a': 'config.TOKEN' is not declared in 'config'; 'TOKEN' is declared in 'secrets': write secrets.TOKEN`,
      `14: step 'a': 'secrets.NOPE' is not declared: add 'NOPE' to the front matter 'secrets' list`,
    ]);
  });

  it('secrets never in log messages or fail errors', () => {
    const m = messages(flow('secrets: [K]', step('id: a\ntype: log\nmessage: key ${secrets.K}')), 'validate');
    expect(m).to.deep.equal([`12: step 'a': 'message' must not use 'secrets.K': secret values never go into logs or errors`]);
  });

  it('unclosed and empty ${ are validate errors', () => {
    const m = messages(flow('', step("id: a\ntype: transform\nvalue: 'x ${body.a'") + step("id: b\ntype: transform\nvalue: 'x ${ }'")), 'validate');
    expect(m).to.deep.equal([
      `11: step 'a': 'value': the '\${' at column 3 is never closed by a matching '}'`,
      `17: step 'b': 'value': empty expression '\${}' at column 3`,
    ]);
  });

  it('a JSONata syntax error validates but does not compile', () => {
    const f = writeFlow(flow('', step('id: a\ntype: transform\nvalue: ${body.a +}')));
    expect(validateErrors(f)).to.deep.equal([]);
    expect(compileErrors(f).map(render)).to.deep.equal([
      `${f}:11: step 'a': 'value': invalid expression \${body.a +}: Unexpected end of expression at character 8`,
    ]);
  });

  it('unknown functions are compile errors with a suggestion; extra functions and bound lambdas are fine', () => {
    const ok = messages(flow('', step('id: a\ntype: transform\nvalue: ${($f := function($x) { $x }; $f($uuid() & $sha256("a") & $hmac_sha256("k", "v") & $base64_encode("x") & $base64_decode("eA==") & $to_json($parse_json("{}"))))}')), 'compile');
    expect(ok).to.deep.equal([]);
    const m = messages(flow('', step('id: a\ntype: transform\nvalue: ${$uuidd()}')), 'compile');
    expect(m).to.deep.equal([`11: step 'a': 'value': unknown function '$uuidd' in \${$uuidd()} (did you mean '$uuid'?)`]);
  });

  it('compile-time configuration checks', () => {
    const m = messages(
      flow(
        'schedule: "61 * * * *"',
        step('id: a\ntype: fail\nstatus: 302') +
          step('id: b\ntype: grpc\ntarget: erp\nproto: p\nservice: s\nmethod: m\ntls: true') +
          step('id: c\ntype: correlate_open\nkey: body.id\ndeadline: 2 weeks') +
          step('id: d\ntype: validate\nschema: { type: strng, additionalProperties: false }'),
      ),
      'compile',
    );
    expect(m).to.deep.equal([
      `4: front matter: 'schedule': minute field '61': 61 is out of range (0-59)`,
      `12: step 'a': 'status' must be an error status (400-599), got 302`,
      `18: step 'b': 'target' must be host:port (for example 'erp.internal:443'), got 'erp'`,
      `22: step 'b': 'tls: true' needs TLS client material: set tls_client_cert and tls_client_key in the flow's front matter`,
      `29: step 'c': 'deadline': '2 weeks' is not a duration: write a number and a unit (90s, 15m, 2h, 1d; also ms) or ISO 8601 such as PT2H`,
      `35: step 'd': 'schema.type': 'type' must be one of string, number, integer, boolean, object, array, null, got "strng" (did you mean 'string'?)`,
      `35: step 'd': 'schema.additionalProperties': unsupported JSON Schema keyword 'additionalProperties'; supported: type, properties, required, items, enum, minimum, maximum, minLength, maxLength, pattern, title, description`,
    ]);
  });

  it('timezone and input schema problems', () => {
    const m = messages(
      flow('schedule: { cron: "0 7 * * *", timezone: Europe/Berln }\ninput:\n  type: object\n  properties:\n    a: { type: string, pattern: "(" }\n  required: [b]', ''),
      'compile',
    );
    expect(m).to.deep.equal([
      `4: front matter: 'schedule.timezone': unknown time zone 'Europe/Berln' (an IANA name such as 'Europe/Berlin'; did you mean 'Europe/Berlin'?)`,
      `8: front matter: 'input.properties.a.pattern': 'pattern' is not a valid regular expression: Invalid regular expression: /(/u: Unterminated group`,
      `9: front matter: 'input.required': 'required' names 'b', which is not in 'properties' (did you mean 'a'?)`,
    ]);
  });

  it('a fence that looks like a step but is not', () => {
    const m = messages(flow('', '```yml step\nid: a\n```\n\n```yaml step now\nid: b\ntype: log\nmessage: x\n```\n'), 'validate');
    expect(m).to.deep.equal([
      `8: code block 'yml step' looks like a step but is documentation: the info string of a step is exactly 'yaml step'`,
      `12: step block info string 'yaml step now': only the words 'yaml step' are allowed`,
    ]);
  });
});
