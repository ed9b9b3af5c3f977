import { Help } from '@oclif/core';
import { EXIT_CODE_HELP } from './exit-codes';

/** oclif's help, with the exit-code table under the root help. */
export default class SvcHelp extends Help {
  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    this.log('');
    this.log(EXIT_CODE_HELP);
  }
}
