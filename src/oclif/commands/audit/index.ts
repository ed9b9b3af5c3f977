import { Flags } from '@oclif/core';
import { ListAuditEntries, VerifyAuditChain } from '../../../queries/audit-queries';
import { SvcCommand } from '../../base-command';
import { renderTable } from '../../render/table';

export default class Audit extends SvcCommand {
  static override summary = "Show a tenant's audit chain, newest first; --verify checks the hash chain.";
  static override description = 'A broken chain prints the offending entries and exits 1.';
  static override examples = ['<%= config.bin %> audit --tenant acme --limit 50 --verify'];
  static override flags = {
    tenant: Flags.string({ required: true, description: 'tenant id' }),
    limit: Flags.integer({ char: 'l', default: 20, min: 1, description: 'how many of the most recent entries' }),
    db: Flags.string({ description: 'audit database file (default ~/.svc/svc-audit.db)', helpValue: '<path>' }),
    verify: Flags.boolean({ default: false, description: 'also check the hash chain' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Audit);
    const app = this.openApp({ auditDb: flags.db });
    const entries = await app.queries.execute(new ListAuditEntries(flags.tenant, flags.limit));
    if (entries.length === 0) this.out(`No audit entries for tenant ${flags.tenant}.`);
    else this.out(renderTable(['seq', 'event_type', 'created_at', 'correlation_id'], entries.map((e) => [String(e.seq), e.eventType, e.createdAt, e.correlationId])));
    if (!flags.verify) return;
    const verdict = await app.queries.execute(new VerifyAuditChain(flags.tenant));
    if (verdict.faults.length === 0) {
      this.out(`chain integrity: OK (${verdict.checked} entries checked)`);
      return;
    }
    const seqs = [...new Set(verdict.faults.map((f) => f.seq))];
    this.out(`chain integrity: BROKEN (${seqs.length} of ${verdict.checked} entries fail)`);
    for (const fault of verdict.faults) this.out(`  seq ${fault.seq}: ${fault.problem}`);
    this.note(`error: the audit chain of tenant ${flags.tenant} is broken at seq ${seqs.join(', ')}`);
    this.fail(1);
  }
}
