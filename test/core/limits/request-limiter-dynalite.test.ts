import { startDynaliteStore } from '../../support/dynalite-store.js';
import { describeRequestLimiterOn } from './request-limiter-contract.js';

describeRequestLimiterOn('dynalite', () => startDynaliteStore('limits'));
