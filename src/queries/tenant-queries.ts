import { Query, type MessageMeta } from '../domain/message';
import type { Tenant } from '../domain/tenant';

export class ListTenants extends Query<Tenant[]> {
  constructor(meta?: MessageMeta) {
    super(meta);
  }
}
