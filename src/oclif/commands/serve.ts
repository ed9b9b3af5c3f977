import { Flags } from '@oclif/core';
import { usageError } from '../../domain/errors';
import { SvcCommand, dbFlag } from '../base-command';

export default class Serve extends SvcCommand {
  static override summary = 'Serve the HTTP API (plain HTTP/h2c; TLS belongs to the reverse proxy).';
  static override description = [
    'Routes: POST /flows/<tenant>/<name>/run, POST /flows/<tenant>/<name>/enqueue (202 once durably queued), POST /connector/events/<tenant>/<source>, GET /flows/<tenant>/<name> (flow information), GET /flows/<tenant>/<name>/wsdl (public) and GET /health (public).',
    'Inside the same process: queue workers for every deployed flow (retries with backoff, then the dead-letter log: see svc dlq) and the cron door for flows with a schedule.',
    'Refuses to start when a deployed flow needs an SVC_CONFIG_<KEY> or SVC_SECRET_<KEY> variable that is not set (see svc config check), or when SVC_SECRET_SVC_STATE_KEY is missing. Configuration is read once, at start.',
    'Revoking a key, disabling or enabling a tenant and deploying a version take effect at the next request, without a restart. SIGTERM or SIGINT stop it gracefully.',
    'Environment: SVC_MAX_MESSAGE_BYTES (installation body ceiling, default 1048576), SVC_REQUEST_TIMEOUT_MS (bound on reading a request, default 30000).',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> serve --host 127.0.0.1 --port 9090', '<%= config.bin %> serve --secret "$WEBHOOK_SECRET"'];
  static override flags = {
    host: Flags.string({ default: '0.0.0.0', description: 'bind address', helpValue: '<h>' }),
    port: Flags.integer({ char: 'p', default: 9090, min: 0, max: 65535, description: 'bind port (0: any free port, printed in the banner)', helpValue: '<p>' }),
    db: dbFlag,
    secret: Flags.string({ description: 'enable X-Svc-Signature verification (sha256=<hex HMAC-SHA256 of the raw body>) with this secret', helpValue: '<key>' }),
    'no-auth': Flags.boolean({ default: false, description: 'serve without API key authentication (development only; warned at every boot)' }),
    'max-message-bytes': Flags.integer({ min: 1, description: 'installation body ceiling in bytes (default SVC_MAX_MESSAGE_BYTES or 1048576)', helpValue: '<n>' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    if (flags.secret !== undefined && flags.secret === '') throw usageError('--secret must not be empty');
    const timeout = process.env.SVC_REQUEST_TIMEOUT_MS === undefined ? undefined : Number(process.env.SVC_REQUEST_TIMEOUT_MS);
    if (timeout !== undefined && !(Number.isSafeInteger(timeout) && timeout > 0)) throw usageError(`SVC_REQUEST_TIMEOUT_MS='${process.env.SVC_REQUEST_TIMEOUT_MS}' is not a positive whole number of milliseconds`);
    // Loaded here, not at the top: `svc --help` must not pay for Koa and winston.
    const { createStderrLogger } = await import('../../infra/logging/logger');
    const { startServer } = await import('../../infra/serve/start-server');
    const logger = createStderrLogger();
    const server = await startServer({
      host: flags.host,
      port: flags.port,
      db: flags.db,
      secret: flags.secret,
      auth: !flags['no-auth'],
      maxMessageBytes: flags['max-message-bytes'],
      requestTimeoutMs: timeout,
      logger,
    });
    for (const line of server.banner) this.out(line);
    logger.log('info', 'svc serve started', { url: server.url });
    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals): void => {
        logger.log('info', 'stopping: finishing in-flight requests and writing buffered records', { signal });
        server.close().then(resolve, (err: unknown) => {
          logger.log('error', 'unclean stop', { error: err instanceof Error ? err.message : String(err) });
          resolve();
        });
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    logger.log('info', 'svc serve stopped');
  }
}
