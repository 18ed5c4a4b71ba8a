import { Injectable, OnApplicationBootstrap } from '@nestjs/common';

type StartupHook = () => void | Promise<void>;

/**
 * Work that must start only once every module has bootstrapped: an outbox relay must not publish
 * before every consumer of the process has subscribed (on the in-process bus an event published to
 * nobody is gone). Registered by any module, run by `StartupHooksRunner` in the root module.
 */
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

/**
 * Declared in the root module that `createHttpApp` builds: Nest runs bootstrap hooks from the
 * deepest module to the root, so this one runs last.
 */
@Injectable()
export class StartupHooksRunner implements OnApplicationBootstrap {
  constructor(private readonly hooks: StartupHooks) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.hooks.run();
  }
}
