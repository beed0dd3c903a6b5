import { describeMemoryStore } from './memory-store-suite.js';

describeMemoryStore('dynalite');
