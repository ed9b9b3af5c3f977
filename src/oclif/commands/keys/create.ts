import { Flags } from '@oclif/core';
import { CreateApiKey } from '../../../commands/api-key-commands';
import { usageError } from '../../../domain/errors';
import { SvcCommand, dbFlag } from '../../base-command';
import { splitList } from '../../parse-list';
import { list } from '../../render/table';

function parseRate(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw usageError(`--rate-limit '${text}' is not a positive number`, 'give sustained requests per second, e.g. --rate-limit 10 (burst is twice that)');
  }
  return n;
}

function expiryText(expiresAt: string | null, given: string | undefined): string {
  if (expiresAt === null) return 'never';
  const at = expiresAt.replace(/\.000Z$/, 'Z');
  return given !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(given) ? `${at} (valid through ${given}, UTC)` : at;
}

export default class KeysCreate extends SvcCommand {
  static override summary = 'Create an API key for a registered tenant; the key value is printed once.';
  static override description = 'Only a hash of the key is stored. Present it as "Authorization: Bearer <API_KEY>".';
  static override examples = [
    '<%= config.bin %> keys create --tenant acme --label ci',
    '<%= config.bin %> keys create --tenant acme --label shop --scopes orders:write --flows order-intake --rate-limit 10 --expires-at 2027-12-31',
  ];
  static override flags = {
    tenant: Flags.string({ required: true, description: 'tenant id' }),
    label: Flags.string({ required: true, description: 'what the key is for' }),
    scopes: Flags.string({ default: '*', description: 'comma-separated scopes; * carries every scope' }),
    'expires-at': Flags.string({ description: 'YYYY-MM-DD (the whole day, UTC) or YYYY-MM-DDTHH:MM:SSZ; offsets are refused; default never', helpValue: '<ts>' }),
    'rate-limit': Flags.string({ description: 'sustained requests per second (burst is twice that); default unlimited', helpValue: '<rps>' }),
    flows: Flags.string({ description: 'comma-separated flow names the key may call; default all flows' }),
    db: dbFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysCreate);
    const rate = parseRate(flags['rate-limit']);
    const app = this.openApp({ registry: flags.db });
    const { key, value } = await app.commands.execute(
      new CreateApiKey(flags.tenant, flags.label, splitList(flags.scopes), flags.flows === undefined ? null : splitList(flags.flows), flags['expires-at'] ?? null, rate),
    );
    const rows: Array<[string, string]> = [
      ['id', String(key.id)],
      ['tenant', key.tenant],
      ['label', key.label],
      ['scopes', key.scopes.join(',')],
      ['flows', list(key.flows, '(all flows)')],
      ['rate limit', key.rateLimit === null ? 'unlimited' : `${key.rateLimit} req/s, burst ${key.rateLimit * 2}`],
      ['expires_at', expiryText(key.expiresAt, flags['expires-at'])],
      ['key', value],
      ['usage', `Authorization: Bearer ${value}`],
    ];
    this.out(rows.map(([k, v]) => `${`${k}:`.padEnd(12)}${v}`).join('\n'));
    this.note('Store the key now: it is shown only once, and svc keeps only its hash.');
  }
}
