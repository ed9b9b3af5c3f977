/** A throw-away CA, server and client certificate made with the openssl command (for mutual TLS tests). */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';

export interface TestCerts {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

export function haveOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeCerts(dir: string): TestCerts {
  const p = (f: string): string => path.join(dir, f);
  const ssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  };
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=svc test CA');
  for (const name of ['server', 'client']) {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name === 'server' ? '127.0.0.1' : 'acme-client'}`);
    const ext = p(`${name}.ext`);
    writeFileSync(ext, name === 'server' ? 'subjectAltName=IP:127.0.0.1\n' : 'extendedKeyUsage=clientAuth\n');
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', ext);
  }
  return { dir, caCert: p('ca.pem'), serverCert: p('server.pem'), serverKey: p('server.key'), clientCert: p('client.pem'), clientKey: p('client.key') };
}
