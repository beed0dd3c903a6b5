import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../lambdas/core/canonical-json.js';
import {
  type BuiltSnapshot,
  buildSnapshot,
  countListed,
  type SnapshotInput,
  SnapshotIntegrityError,
  verifySnapshot,
} from '../../../lambdas/core/memory/snapshots/snapshot-manifest.js';
import { sha256Hex } from '../../../lambdas/core/ports/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function input(overrides: Partial<SnapshotInput> = {}): SnapshotInput {
  return {
    projectId: 'proj-1',
    snapshotId: 'snap-2',
    createdAt: '2026-11-23T20:30:00Z',
    description: 'Before the refactor',
    previousManifestSha256: sha256Hex(bytes('the previous manifest')),
    items: [
      {
        id: 'entry-1',
        kind: 'entry',
        data: { content: 'We chose Postgres 16.', tags: ['decision'], version: 3 },
      },
      { id: 'branch-main', kind: 'branch', data: { name: 'main', parent: null } },
      { id: 'entry-2', kind: 'entry', data: { content: 'Café — ünïcode and "quotes"\n', body_blob: 'b/1' } },
    ],
    blobs: [
      { key: 'projects/proj-1/bodies/1', bytes: bytes('a long body '.repeat(50)) },
      { key: 'projects/proj-1/bodies/2', bytes: new Uint8Array([0, 255, 1, 254]) },
    ],
    ...overrides,
  };
}

const expectation = { projectId: 'proj-1', snapshotId: 'snap-2' };

/** A snapshot of just these items (no blobs). */
const snapshotOf = (items: SnapshotInput['items']) => buildSnapshot(input({ items, blobs: [] }));

function flipBit(source: Uint8Array, bit: number): Uint8Array {
  const copy = new Uint8Array(source);
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
}

function refusal(run: () => unknown): SnapshotIntegrityError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotIntegrityError);
    return error as SnapshotIntegrityError;
  }
  throw new Error('expected the snapshot to be refused');
}

describe('buildSnapshot', () => {
  it('lists every item and every blob with its SHA-256, the archive hash and the previous manifest', () => {
    const built = buildSnapshot(input());
    const { body } = built.manifest;

    expect(body.items.map((i) => [i.id, i.kind])).toEqual([
      ['entry-1', 'entry'],
      ['branch-main', 'branch'],
      ['entry-2', 'entry'],
    ]);
    expect(body.blobs).toEqual([
      { key: 'projects/proj-1/bodies/1', sha256: sha256Hex(bytes('a long body '.repeat(50))), size: 600 },
      { key: 'projects/proj-1/bodies/2', sha256: sha256Hex(new Uint8Array([0, 255, 1, 254])), size: 4 },
    ]);
    expect(body.archive).toEqual({
      sha256: sha256Hex(built.archiveBytes),
      size: built.archiveBytes.byteLength,
    });
    expect(body.previous_manifest_sha256).toBe(sha256Hex(bytes('the previous manifest')));
    expect(built.manifestSha256).toBe(sha256Hex(built.manifestBytes));
  });

  it('chains: the next snapshot records this manifest’s hash', () => {
    const first = buildSnapshot(input({ snapshotId: 'snap-1', previousManifestSha256: null }));
    const second = buildSnapshot(input({ previousManifestSha256: first.manifestSha256 }));

    expect(first.manifest.body.previous_manifest_sha256).toBeNull();
    expect(second.manifest.body.previous_manifest_sha256).toBe(first.manifestSha256);
  });

  it('gives the same bytes whatever order an item’s fields were set in', () => {
    const a = buildSnapshot(input({ items: [{ id: 'x', kind: 'entry', data: { a: 1, b: 2 } }] }));
    const b = buildSnapshot(input({ items: [{ id: 'x', kind: 'entry', data: { b: 2, a: 1 } }] }));

    expect(b.manifestBytes).toEqual(a.manifestBytes);
    expect(b.archiveBytes).toEqual(a.archiveBytes);
  });
});

describe('verifySnapshot', () => {
  const built: BuiltSnapshot = buildSnapshot(input());

  it('returns every item and blob of an intact snapshot', () => {
    const verified = verifySnapshot(built.manifestBytes, built.archiveBytes, {
      ...expectation,
      manifestSha256: built.manifestSha256,
    });

    expect(verified.items).toEqual(input().items);
    expect(verified.blobs.map((b) => [b.key, b.bytes])).toEqual(input().blobs.map((b) => [b.key, b.bytes]));
    expect(verified.manifestSha256).toBe(built.manifestSha256);
  });

  it("keeps item text that looks like a replacement pattern ($& and $') intact", () => {
    const items = [{ id: 'entry-$', kind: 'entry', data: { content: "Costs $& and $' and $$ and $1" } }];
    const snapshot = snapshotOf(items);

    const verified = verifySnapshot(snapshot.manifestBytes, snapshot.archiveBytes, expectation);

    expect(verified.items).toEqual(items);
  });

  it('detects one flipped bit anywhere in the archive', () => {
    fc.assert(
      fc.property(fc.nat({ max: built.archiveBytes.byteLength * 8 - 1 }), (bit) => {
        refusal(() => verifySnapshot(built.manifestBytes, flipBit(built.archiveBytes, bit), expectation));
      }),
      { numRuns: 300 },
    );
  });

  it('detects one flipped bit anywhere in the manifest', () => {
    fc.assert(
      fc.property(fc.nat({ max: built.manifestBytes.byteLength * 8 - 1 }), (bit) => {
        refusal(() => verifySnapshot(flipBit(built.manifestBytes, bit), built.archiveBytes, expectation));
      }),
      { numRuns: 300 },
    );
  });

  it('detects a flipped bit at every 7th bit of a small snapshot, archive and manifest', () => {
    const small = buildSnapshot(input({ items: [{ id: 'i', kind: 'entry', data: 'x' }], blobs: [] }));

    for (let bit = 0; bit < small.manifestBytes.byteLength * 8; bit += 7) {
      refusal(() => verifySnapshot(flipBit(small.manifestBytes, bit), small.archiveBytes, expectation));
    }
    for (let bit = 0; bit < small.archiveBytes.byteLength * 8; bit += 7) {
      refusal(() => verifySnapshot(small.manifestBytes, flipBit(small.archiveBytes, bit), expectation));
    }
  });

  it('refuses an archive paired with another snapshot’s manifest', () => {
    const other = buildSnapshot(input({ items: input().items.slice(0, 2) }));

    expect(refusal(() => verifySnapshot(other.manifestBytes, built.archiveBytes, expectation)).reason).toBe(
      'ARCHIVE_CHANGED',
    );
  });

  it('refuses a manifest whose item list was edited and its own hash recomputed', () => {
    // Whoever can rewrite the plaintext can recompute body_sha256 too; the item hashes still disagree.
    const { body } = built.manifest;
    const edited = { ...body, items: body.items.slice(1) };
    const forged = bytes(
      canonicalJson({ body: edited, body_sha256: sha256Hex(bytes(canonicalJson(edited))) }),
    );

    expect(refusal(() => verifySnapshot(forged, built.archiveBytes, expectation)).reason).toBe(
      'CONTENT_MISMATCH',
    );
  });

  it('refuses a valid manifest other than the one recorded', () => {
    const other = buildSnapshot(input({ description: 'another' }));

    const error = refusal(() =>
      verifySnapshot(other.manifestBytes, other.archiveBytes, {
        ...expectation,
        manifestSha256: built.manifestSha256,
      }),
    );

    expect(error.reason).toBe('MANIFEST_NOT_EXPECTED');
  });

  it('refuses a snapshot of another project or id', () => {
    const error = refusal(() =>
      verifySnapshot(built.manifestBytes, built.archiveBytes, { projectId: 'proj-9', snapshotId: 'snap-2' }),
    );

    expect(error.reason).toBe('WRONG_SNAPSHOT');
  });

  it('refuses a manifest that is the same JSON in another layout', () => {
    const reformatted = bytes(
      JSON.stringify(JSON.parse(new TextDecoder().decode(built.manifestBytes)), null, 1),
    );

    expect(refusal(() => verifySnapshot(reformatted, built.archiveBytes, expectation)).reason).toBe(
      'MANIFEST_UNREADABLE',
    );
  });
});

describe('countListed', () => {
  it('counts the items a built manifest lists, in all and by kind, whatever their ids and data hold', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            // Ids and data that spell out the pattern counted, which a JSON string must escape.
            id: fc.oneof(fc.string({ minLength: 1 }), fc.constant(',"kind":"context","sha256":"')),
            kind: fc.constantFrom('entry', 'branch', 'context', 'file'),
            data: fc.oneof(fc.string(), fc.constant({ note: ',"kind":"branch","sha256":"' })),
          }),
          { maxLength: 30 },
        ),
        (items) => {
          const { manifestBytes } = buildSnapshot(input({ items, blobs: [] }));
          expect(countListed(manifestBytes)).toBe(items.length);
          for (const kind of ['branch', 'context'] as const) {
            expect(countListed(manifestBytes, kind)).toBe(items.filter((item) => item.kind === kind).length);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
