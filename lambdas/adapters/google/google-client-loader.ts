/**
 * The Google client libraries, behind one module that is imported on first use only.
 * They are a large part of the Lambda bundle; importing them lazily keeps cold starts (and every
 * request that never touches a Google account) from paying for their evaluation. It imports
 * nothing of Meridian's own: that rule dates from single-file bundles, where a lazily loaded
 * module sharing Meridian's graph changed the module initialisation order. Split bundles (ADR
 * 0003) load lazily imported Meridian modules as chunks, as the CalDAV adapter now is, and
 * test/lib/constructs/lambda-bundling.test.ts loads every function's bundle to keep it so.
 */
export { calendar } from '@googleapis/calendar';
export { OAuth2Client } from 'google-auth-library';
