import { describeIdleSweep } from './idle-compression-sweep-suite.js';

describeIdleSweep('dynalite');
