// The medium tier's per-test timeout. Jest ignores `testTimeout` inside `projects`
// (jestjs/jest#9759), so each project sets its own here, in a setupFilesAfterEnv file.
jest.setTimeout(30_000);
