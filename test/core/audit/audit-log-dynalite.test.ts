import { startDynaliteStore } from '../../support/dynalite-store.js';
import { describeAuditLogOn } from './audit-log-contract.js';

describeAuditLogOn('dynalite', () => startDynaliteStore('audit'));
