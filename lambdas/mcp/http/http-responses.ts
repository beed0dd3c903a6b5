/** A JSON response; the body is serialised here so every route answers with the same content type. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A JSON-RPC error that answers no particular request (`id: null`), as the transport's own errors do. */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return json(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}
