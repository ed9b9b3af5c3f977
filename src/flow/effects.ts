/** Effect names of step types, and the effects of a list of compiled steps. */
import type { EffectName, StepIR } from './ir';

const EFFECT_OF: Partial<Record<StepIR['type'], EffectName>> = {
  http: 'http_egress',
  oauth2_token: 'http_egress',
  grpc: 'grpc_egress',
  call_flow: 'flow_call',
  enqueue: 'queue',
  correlate_open: 'state',
  correlate_close: 'state',
};

/** Sorted, de-duplicated effect names of all steps: nested, spliced and call_flow library steps too. */
export function collectEffects(steps: readonly StepIR[]): EffectName[] {
  const found = new Set<EffectName>();
  const visit = (list: readonly StepIR[]): void => {
    for (const s of list) {
      const e = EFFECT_OF[s.type];
      if (e !== undefined) found.add(e);
      if (s.type === 'foreach') visit(s.steps);
      if (s.type === 'switch') {
        for (const c of s.cases) visit(c.steps);
        visit(s.default);
      }
      if (s.type === 'call_flow' && s.lib !== null) visit(s.lib.steps);
    }
  };
  visit(steps);
  return [...found].sort();
}
