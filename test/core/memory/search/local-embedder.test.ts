import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localEmbedder } from '../../../../lambdas/core/memory/search/local-embedder.js';

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('localEmbedder', () => {
  it('names its model with its dimension, so indexes of two dimensions are never mixed', () => {
    expect(localEmbedder(384).modelId).not.toBe(localEmbedder(256).modelId);
    expect(localEmbedder(256).dimension).toBe(256);
  });

  it('answers one unit vector of the declared dimension per text, the same on every call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ minLength: 1, maxLength: 200 }), { minLength: 1, maxLength: 5 }),
        async (texts) => {
          const embedder = localEmbedder(128);
          const [first, second] = [await embedder.embed(texts), await embedder.embed(texts)];
          expect(first).toHaveLength(texts.length);
          first.forEach((vector, i) => {
            expect(vector).toHaveLength(128);
            expect(Array.from(vector)).toEqual(Array.from(second[i]!));
            const length = norm(vector);
            // A text with no searchable word (punctuation, stop words only) has the zero vector.
            expect(length === 0 || Math.abs(length - 1) < 1e-5).toBe(true);
          });
        },
      ),
    );
  });

  it('places word forms and abbreviations of one idea closer than unrelated text', async () => {
    const [query, related, unrelated] = await localEmbedder().embed([
      'k8s pods evicted',
      'Kubernetes evicting the pod',
      'invoice VAT rate for Ireland',
    ]);

    expect(cosine(query!, related!)).toBeGreaterThan(0.3);
    expect(cosine(query!, unrelated!)).toBeLessThan(0.1);
  });
});
