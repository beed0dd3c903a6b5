import { z } from 'zod';

/** Shared input fields, described once so every tool explains them the same way. */
export const ianaZone = (purpose: string) =>
  z.string().min(1).describe(`IANA time zone (e.g. "America/New_York") ${purpose}`);

export const rfc3339 = (purpose: string) => z.string().min(1).describe(`RFC 3339 with offset: ${purpose}`);

export const outputFormat = z
  .enum(['toon', 'json'])
  .default('toon')
  .describe('Text form of the result: "toon" (compact) or "json"; structuredContent is JSON either way.');
