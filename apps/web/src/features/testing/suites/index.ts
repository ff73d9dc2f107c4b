import type { TestingContext } from '../model/context';
import type { SuiteDefinition } from '../model/suite';
import { apiSuite } from './api';
import { cryptoSuite } from './crypto';
import { e2eSuite } from './e2e';
import { performanceSuite } from './performance';
import { securitySuite } from './security';

/** The dashboard's five suites, in the spec's order (SUITE_IDS). */
export const SUITES: SuiteDefinition<TestingContext>[] = [
  cryptoSuite,
  apiSuite,
  e2eSuite,
  securitySuite,
  performanceSuite,
];
