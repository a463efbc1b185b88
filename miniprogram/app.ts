/**
 * The mini-program: the app itself holds no state; the login lives in storage
 * (platform/session-store.ts) and every page reads it there. At launch it listens for a new version
 * (platform/update.ts), applied when the person agrees.
 */
import { offerUpdates } from './platform/update';

App({
  onLaunch() {
    offerUpdates();
  },
});
