import { Injectable, OnApplicationBootstrap } from '@nestjs/common';

type StartupHook = () => void | Promise<void>;

/** Work that must start only once every module has bootstrapped. */
@Injectable()
export class StartupHooks {
  private readonly hooks: StartupHook[] = [];

  afterBootstrap(hook: StartupHook): void {
    this.hooks.push(hook);
  }

  async run(): Promise<void> {
    for (const hook of this.hooks.splice(0)) {
      await hook();
    }
  }
}

@Injectable()
export class StartupHooksRunner implements OnApplicationBootstrap {
  constructor(private readonly hooks: StartupHooks) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.hooks.run();
  }
}
