import { startDynaliteStore } from '../../support/dynalite-store.js';
import { describeDocumentStoreContract } from './document-store-contract.js';

describeDocumentStoreContract('dynalite (in-process, in memory)', () => startDynaliteStore('contract'));
