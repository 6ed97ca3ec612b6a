// The environment of the credential store's helper process (keychain.ts): what the stores need to be
// found, never a key. The same is checked on a live helper in credential-store.test.ts (/proc).
import { describe, expect, it } from 'vitest';
import { helperEnv } from '../../src/config/keychain.js';

describe('helperEnv', () => {
  it('keeps the bus, home and system folders; drops every MTG_* variable (any case) and NODE_OPTIONS', () => {
    const env = helperEnv({
      PATH: '/usr/bin',
      HOME: '/home/u',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      XDG_RUNTIME_DIR: '/run/user/1000',
      SystemRoot: 'C:\\Windows',
      NAPI_RS_NATIVE_LIBRARY_PATH: '/opt/keyring.node',
      MTG_API_KEY: 'mtg_sk_secret',
      Mtg_Api_Key: 'mtg_sk_secret_windows_case',
      MTG_PROFILE: 'work',
      NODE_OPTIONS: '--require /tmp/hook.cjs',
      AWS_SECRET_ACCESS_KEY: 'x',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      XDG_RUNTIME_DIR: '/run/user/1000',
      SystemRoot: 'C:\\Windows',
      NAPI_RS_NATIVE_LIBRARY_PATH: '/opt/keyring.node',
    });
  });
});
