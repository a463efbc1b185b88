/**
 * The part of jsdom the mini-program's harness uses (test/miniprogram/harness.ts). @types/jsdom is not installed:
 * it brings the whole DOM library into the project's Node types, where its Blob and Node's Buffer disagree.
 */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { pretendToBeVisual?: boolean });
    readonly window: { document: { createElement(tag: string): unknown }; navigator: unknown } & Record<string, unknown>;
  }
}
