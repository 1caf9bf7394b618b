import { describe } from 'vitest';
import { describeProviderContract } from './provider-contract.ts';
import { createSandboxHarness } from './sandbox-harness.ts';

describe('sandbox', () => describeProviderContract(createSandboxHarness));
