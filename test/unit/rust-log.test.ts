import { expect } from 'chai';
import { levelEnabled, levelFromRustLog } from '../../src/infra/logging/rust-log';

describe('RUST_LOG parsing', () => {
  it('defaults to info', () => {
    expect(levelFromRustLog(undefined)).to.equal('info');
    expect(levelFromRustLog('')).to.equal('info');
    expect(levelFromRustLog('nonsense')).to.equal('info');
  });
  it('takes a bare level or the svc target of a list', () => {
    expect(levelFromRustLog('debug')).to.equal('debug');
    expect(levelFromRustLog('TRACE')).to.equal('trace');
    expect(levelFromRustLog('hyper=warn,svc=debug')).to.equal('debug');
    expect(levelFromRustLog('hyper=trace')).to.equal('info');
    expect(levelFromRustLog('off')).to.equal('error');
  });
  it('orders levels', () => {
    expect(levelEnabled('info', 'debug')).to.equal(false);
    expect(levelEnabled('debug', 'info')).to.equal(true);
  });
});
