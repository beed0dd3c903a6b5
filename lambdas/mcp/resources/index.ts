import type { ResourceFamily } from '../resource-registry.js';
import { memoryResources } from './memory-resources.js';
import { timesheetResources } from './timesheet-resources.js';

/** Every resource family Meridian serves, by URI scheme; each is listed only when its toolset is on. */
export const RESOURCE_FAMILIES: readonly ResourceFamily[] = [timesheetResources, memoryResources];
