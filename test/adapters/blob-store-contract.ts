import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDomainError } from '../../lambdas/core/errors.js';
import {
  BlobExistsError,
  BlobIntegrityError,
  BlobNotFoundError,
  type BlobStore,
} from '../../lambdas/core/ports/index.js';

export interface BlobStoreUnderTest {
  store: BlobStore;
  close(): Promise<void>;
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A key space no other test touches, so tests share one store without seeing each other. */
const freshPrefix = (): string => `t-${randomUUID()}/`;

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/**
 * One behavioural suite for every adapter behind the BlobStore port (files under a folder, S3 over
 * the wire). `makeStore` is called once per suite and must give an empty store.
 */
export function describeBlobStoreContract(label: string, makeStore: () => Promise<BlobStoreUnderTest>): void {
  describe(`BlobStore contract: ${label}`, () => {
    let subject: BlobStoreUnderTest;
    let store: BlobStore;

    beforeAll(async () => {
      subject = await makeStore();
      store = subject.store;
    });
    afterAll(async () => {
      await subject?.close();
    });

    describe('put', () => {
      it('stores the bytes and returns their size and SHA-256', async () => {
        const key = `${freshPrefix()}note.json`;
        const bytes = text('{"summary":"chose Postgres"}');

        const written = await store.put(key, bytes);

        expect(written).toEqual({ key, size: bytes.byteLength, sha256: hex(bytes) });
        expect(await store.get(key)).toEqual(bytes);
      });

      it('refuses to overwrite and keeps the first bytes', async () => {
        const key = `${freshPrefix()}once`;
        await store.put(key, text('first'));

        const error = await thrown(store.put(key, text('second')));

        expect(error).toBeInstanceOf(BlobExistsError);
        expect((error as BlobExistsError).key).toBe(key);
        expect(new TextDecoder().decode(await store.get(key))).toBe('first');
      });

      it('keeps every byte value and an empty blob exactly', async () => {
        const prefix = freshPrefix();
        const everyByte = new Uint8Array(256).map((_, i) => i);
        const large = new Uint8Array(randomBytes(1024 * 1024 + 7));

        await store.put(`${prefix}bytes`, everyByte);
        await store.put(`${prefix}empty`, new Uint8Array());
        await store.put(`${prefix}large`, large);

        expect(await store.get(`${prefix}bytes`)).toEqual(everyByte);
        expect(await store.get(`${prefix}empty`)).toEqual(new Uint8Array());
        expect(hex(await store.get(`${prefix}large`))).toBe(hex(large));
      });

      it.each([
        '',
        '../escape',
        'a//b',
        '.hidden/x',
        'a/./b',
        'spaces are not allowed',
        `${'k'.repeat(513)}`,
      ])('rejects the key %j and says what a key looks like', async (key) => {
        const error = await thrown(store.put(key, text('x')));

        expect(isDomainError(error, 'INVALID_INPUT')).toBe(true);
        expect((error as Error).message).toContain('example');
      });
    });

    describe('get', () => {
      it('returns the bytes when the expected SHA-256 matches', async () => {
        const key = `${freshPrefix()}checked`;
        const { sha256 } = await store.put(key, text('payload'));

        expect(await store.get(key, { expectedSha256: sha256 })).toEqual(text('payload'));
      });

      it('refuses bytes whose SHA-256 is not the expected one', async () => {
        const key = `${freshPrefix()}checked`;
        const { sha256 } = await store.put(key, text('payload'));
        const other = hex(text('another payload'));

        const error = await thrown(store.get(key, { expectedSha256: other }));

        expect(error).toBeInstanceOf(BlobIntegrityError);
        expect(error).toMatchObject({ key, expectedSha256: other, actualSha256: sha256 });
      });

      it('reports a missing blob as not found', async () => {
        const key = `${freshPrefix()}missing`;

        const error = await thrown(store.get(key));

        expect(error).toBeInstanceOf(BlobNotFoundError);
        expect((error as BlobNotFoundError).key).toBe(key);
      });
    });

    describe('head', () => {
      it('reports size and SHA-256 without the body, and undefined for a missing key', async () => {
        const key = `${freshPrefix()}meta`;
        const bytes = text('twelve bytes');
        await store.put(key, bytes);

        expect(await store.head(key)).toEqual({ key, size: 12, sha256: hex(bytes) });
        expect(await store.head(`${freshPrefix()}none`)).toBeUndefined();
      });
    });

    describe('delete', () => {
      it('removes the blob, tolerates a missing one, and frees the key for a new write', async () => {
        const key = `${freshPrefix()}gone`;
        await store.put(key, text('old'));

        await store.delete(key);
        await store.delete(key);

        expect(await store.head(key)).toBeUndefined();
        await store.put(key, text('new'));
        expect(new TextDecoder().decode(await store.get(key))).toBe('new');
      });
    });

    describe('list', () => {
      it('lists only keys under the prefix, in ascending order, with sizes', async () => {
        const prefix = freshPrefix();
        for (const key of ['b/2', 'a/1', 'a/10', 'c']) await store.put(`${prefix}${key}`, text(key));
        await store.put(`${freshPrefix()}a/1`, text('elsewhere'));

        const page = await store.list({ prefix });

        expect(page).toEqual({
          blobs: [
            { key: `${prefix}a/1`, size: 3 },
            { key: `${prefix}a/10`, size: 4 },
            { key: `${prefix}b/2`, size: 3 },
            { key: `${prefix}c`, size: 1 },
          ],
        });
      });

      it('holds a key and keys below it side by side', async () => {
        const prefix = freshPrefix();

        await store.put(`${prefix}a`, text('parent'));
        await store.put(`${prefix}a/b`, text('child'));

        expect(new TextDecoder().decode(await store.get(`${prefix}a`))).toBe('parent');
        // Sorted here: s3rver lists a key after the keys below it (S3 itself lists in byte order).
        expect((await store.list({ prefix })).blobs.map((b) => b.key).sort()).toEqual([
          `${prefix}a`,
          `${prefix}a/b`,
        ]);
      });

      it('matches a prefix that ends inside a segment', async () => {
        const prefix = freshPrefix();
        for (const key of ['snap-1', 'snap-2', 'snapshot', 'other'])
          await store.put(`${prefix}${key}`, text(key));

        const page = await store.list({ prefix: `${prefix}snap-` });

        expect(page.blobs.map((b) => b.key)).toEqual([`${prefix}snap-1`, `${prefix}snap-2`]);
      });

      it('pages through every key exactly once', async () => {
        const prefix = freshPrefix();
        const keys = Array.from({ length: 7 }, (_, i) => `${prefix}k${i}`);
        for (const key of keys) await store.put(key, text(key));

        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await store.list({ prefix, limit: 3, cursor });
          expect(page.blobs.length).toBeLessThanOrEqual(3);
          seen.push(...page.blobs.map((b) => b.key));
          cursor = page.cursor;
          pages += 1;
        } while (cursor && pages < 10);

        expect(seen).toEqual(keys);
        expect(pages).toBe(3);
      });

      it('returns an empty page for a prefix with nothing under it', async () => {
        expect(await store.list({ prefix: freshPrefix() })).toEqual({ blobs: [] });
      });

      it('rejects a page size out of range and a cursor it did not issue', async () => {
        const prefix = freshPrefix();

        const tooBig = await thrown(store.list({ prefix, limit: 1001 }));
        const forged = await thrown(store.list({ prefix, cursor: '%%%' }));

        expect(isDomainError(tooBig, 'INVALID_INPUT')).toBe(true);
        expect(isDomainError(forged, 'INVALID_INPUT')).toBe(true);
      });
    });
  });
}
