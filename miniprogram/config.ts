/**
 * The one file a factory edits (README "The mini-program"): the service's address for each version of the
 * mini-program. The running version (开发版 develop in DevTools and on a developer's phone, 体验版 trial, 正式版
 * release) picks its address, so a test server and the production server never mix up.
 *
 * Each https address must be in the platform console's server domain list (开发管理 → 开发设置 → 服务器域名 →
 * request 合法域名). An `http://` address works only in DevTools with 「不校验合法域名」 ticked.
 *
 * Never put a secret here (no AppSecret, no token, no password): everything in a mini-program package can be read
 * by anyone who has the mini-program. The service holds the AppSecret; the client logs in with `wx.login`.
 */
export const config = {
  servers: {
    /** 开发版 / DevTools: `npm start` on the developer's computer (with the platform simulator). */
    develop: 'http://127.0.0.1:3000',
    /** 体验版: the factory's test server. */
    trial: 'https://baogong-test.example.com',
    /** 正式版: the factory's server. */
    release: 'https://baogong.example.com',
  },
  /** Seconds one call waits for an answer before it counts as a network failure (then retried when safe). */
  requestTimeoutSeconds: 10,
  /** Name on the home page's title. */
  title: '报工',
};

/** The versions of a mini-program (`wx.getAccountInfoSync().miniProgram.envVersion`). */
export type EnvVersion = keyof typeof config.servers;
