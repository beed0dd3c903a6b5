/**
 * `node:stream/web` as the Lambda bundles see it (lib/constructs/lambda-bundling.ts aliases the
 * specifier here): every export, each read from Node's own module on first use.
 *
 * Why: middy imports `ReadableStream` from `node:stream/web` for one `instanceof` on streamed
 * responses, and an import of a builtin makes Node build all of web streams (readable, writable,
 * transform, compression, the worker port) as the bundle loads: about 30 M instructions, 3 ms, of
 * every booking step's and the sync function's cold start, none of which streams a response.
 * A CommonJS module of getters is what makes it lazy: esbuild reads an imported CommonJS binding
 * at each use (`import_x.ReadableStream`), never at load, so the first `instanceof` — or any
 * other use — loads the real module, and every value is Node's own. The names are Node's (a test
 * compares them with the running Node's module); a name missing here would read as undefined.
 */
type WebStreams = typeof import('node:stream/web');

let webStreams: WebStreams | undefined;

const real = (): WebStreams => {
  // biome-ignore lint/style/useNodejsImportProtocol: the alias takes `node:stream/web` here; this spelling reaches Node.
  webStreams ??= require('stream/web') as WebStreams;
  return webStreams;
};

/** Node's exports of `node:stream/web`: Node 24's (its `ReadableStreamTee` is in no typings). */
const NAMES = [
  'ReadableStream',
  'ReadableStreamDefaultReader',
  'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest',
  'ReadableByteStreamController',
  'ReadableStreamDefaultController',
  'TransformStream',
  'TransformStreamDefaultController',
  'WritableStream',
  'WritableStreamDefaultWriter',
  'WritableStreamDefaultController',
  'ByteLengthQueuingStrategy',
  'CountQueuingStrategy',
  'TextEncoderStream',
  'TextDecoderStream',
  'CompressionStream',
  'DecompressionStream',
  'ReadableStreamTee',
];

const lazyWebStreams = {} as WebStreams;
for (const name of NAMES) {
  Object.defineProperty(lazyWebStreams, name, {
    enumerable: true,
    get: () => (real() as unknown as Record<string, unknown>)[name],
  });
}

export = lazyWebStreams;
