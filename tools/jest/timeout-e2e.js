// The API e2e tier's per-test timeout (see timeout-medium.js for why it is set here).
jest.setTimeout(60_000);
