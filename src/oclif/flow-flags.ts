import { Args, Flags } from '@oclif/core';

export const flowPathArg = Args.string({ required: true, description: 'the .flow.md file' });
export const libsFlag = Flags.string({ description: 'directory of shared flow files that may be included or called with call_flow', helpValue: '<dir>' });
