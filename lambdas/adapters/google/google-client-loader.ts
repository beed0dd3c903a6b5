/**
 * The Google client libraries, behind one module that is imported on first use only.
 * They are a large part of the Lambda bundle; importing them lazily keeps cold starts (and every
 * request that never touches a Google account) from paying for their evaluation. This module
 * must import nothing of Meridian's own: a lazily loaded module that shares Meridian's module
 * graph changes the bundle's module initialisation order.
 */
export { calendar } from '@googleapis/calendar';
export { OAuth2Client } from 'google-auth-library';
