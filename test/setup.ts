// Loaded by mocha before every spec file (see .mocharc.json).
import 'reflect-metadata';

process.env.RUST_LOG = process.env.RUST_LOG_TEST ?? 'error';
