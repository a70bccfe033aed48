/** Flags that keep Chromium quiet and working as root on a closed network (chromium-args.js). */
export declare const CHROMIUM_ARGS: string[];
