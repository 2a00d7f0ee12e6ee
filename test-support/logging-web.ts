import { createServer, type Server } from 'node:http';

/**
 * A plain HTTP server on every address (so 127.0.0.2 reaches the same one as localhost) that
 * answers `hello <path>` and logs each path it was asked for: what reached it, whatever a
 * client says.
 */
export interface LoggingWeb {
  port: number;
  reached: string[];
  close(): Promise<void>;
}

export async function startLoggingWeb(): Promise<LoggingWeb> {
  const reached: string[] = [];
  const server: Server = createServer((req, res) => {
    reached.push(req.url ?? '');
    res.end(`hello ${req.url}`);
  });
  await new Promise<void>((done) => server.listen(0, '0.0.0.0', done));
  const port = (server.address() as { port: number }).port;
  return { port, reached, close: () => new Promise((done) => server.close(() => done())) };
}
