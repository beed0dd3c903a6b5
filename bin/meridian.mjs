#!/usr/bin/env node
// Runs the TypeScript CLI straight from source (tsx), so `npm ci` is the only build step.
import { register } from 'tsx/esm/api';

register();
await import('./meridian.ts');
