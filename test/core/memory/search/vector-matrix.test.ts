import { describe, expect, it } from 'vitest';
import { VectorMatrix } from '../../../../lambdas/core/memory/search/vector-matrix.js';

const DIMENSION = 8;
const vectorOf = (seed: number) =>
  Float32Array.from({ length: DIMENSION }, (_, d) => Math.sin(seed * 7.3 + d * 1.9));

describe('VectorMatrix.copyFrom', () => {
  it('copies runs, single vectors and gaps exactly as setting each vector again would', () => {
    const source = VectorMatrix.empty(6, DIMENSION);
    for (let at = 0; at < 6; at += 1) source.set(at, vectorOf(at));
    // Two runs (0–1 and 3–5), a gap to embed, and a vector moved out of order.
    const from = Int32Array.from([0, 1, -1, 3, 4, 5, 2]);

    const copied = VectorMatrix.empty(from.length, DIMENSION);
    copied.copyFrom(source, from);

    const expected = VectorMatrix.empty(from.length, DIMENSION);
    from.forEach((position, at) => {
      if (position !== -1) expected.set(at, vectorOf(position));
    });
    expect(copied.toJSON()).toEqual(expected.toJSON());
  });

  it('finds a copied vector at its new position', () => {
    const source = VectorMatrix.empty(3, DIMENSION);
    for (let at = 0; at < 3; at += 1) source.set(at, vectorOf(at));
    const copied = VectorMatrix.empty(4, DIMENSION);

    copied.copyFrom(source, Int32Array.from([-1, 2, 0, 1]));

    expect(copied.nearest(vectorOf(2), 1, 0.5, () => true)).toEqual([1]);
    expect(copied.nearest(vectorOf(0), 1, 0.5, () => true)).toEqual([2]);
  });
});
