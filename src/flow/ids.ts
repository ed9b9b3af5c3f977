/** The identifier rules of the flow language. */
export const STEP_ID = /^[a-z][a-z0-9_]*$/;
export const NAME_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const KEY_ID = /^[A-Z][A-Z0-9_]*$/;

export const STEP_ID_TEXT = '[a-z][a-z0-9_]*';
export const NAME_ID_TEXT = '[a-z0-9][a-z0-9-]{0,62}';
export const KEY_ID_TEXT = '[A-Z][A-Z0-9_]*';

export function suggestStepId(s: string): string | undefined {
  const v = s.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '');
  return STEP_ID.test(v) ? v : undefined;
}

export function suggestName(s: string): string | undefined {
  const v = s.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+/, '').slice(0, 63);
  return NAME_ID.test(v) ? v : undefined;
}

export function suggestKey(s: string): string | undefined {
  const v = s.toUpperCase().replace(/[^A-Z0-9_]+/g, '_').replace(/^[^A-Z]+/, '');
  return KEY_ID.test(v) ? v : undefined;
}
