import type { IncomingMessage } from 'node:http';

/** The body grew past the limit the server accepts. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** The connection ended (closed, reset, timed out) before the body arrived whole. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
}

/**
 * The body of `request` as a Web stream, read only as the handler asks for it. It fails with
 * BodyTooLargeError past `maxBytes`, and with ClientGoneError when the connection ends before the
 * body does — a reader never waits for an 'end' that will not come. On failure the rest is left
 * unread (the request is paused): the server closes the connection after its answer rather than
 * read what a client may go on sending.
 *
 * @example
 * new Request(url, { method: 'POST', body: limitedBody(incoming, 4 << 20), duplex: 'half' });
 */
export function limitedBody(request: IncomingMessage, maxBytes: number): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let settled = false;
  let size = 0;
  const detach = () => {
    request.pause();
    request.off('data', onData);
  };
  const fail = (error: Error) => {
    if (settled) return;
    settled = true;
    detach();
    controller.error(error);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) return fail(new BodyTooLargeError(`Request body exceeds ${maxBytes} bytes.`));
    controller.enqueue(chunk);
    // Backpressure: a handler that reads slowly holds the client back, not our memory.
    if ((controller.desiredSize ?? 0) <= 0) request.pause();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start: (streamController) => {
        controller = streamController;
      },
      pull: () => {
        if (!settled) request.resume();
      },
      cancel: () => {
        settled = true;
        detach();
      },
    },
    // Nothing is read ahead of the handler: a request refused from its headers reads no body.
    { highWaterMark: 0 },
  );
  // Paused first, so that listening for 'data' does not start the flow.
  request.pause();
  request.on('data', onData);
  request.once('end', () => {
    if (settled) return;
    settled = true;
    controller.close();
  });
  const gone = () =>
    fail(new ClientGoneError('The connection closed before the request body arrived whole.'));
  // Node emits 'error' on a request only when it has a listener; this one lives as long as the request.
  request.on('error', gone);
  request.once('close', () => {
    if (!request.complete) gone();
  });
  return body;
}
