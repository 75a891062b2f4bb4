#!/usr/bin/env node
// The `atr` command: runs the TypeScript CLI through tsx's loader, so no build step is needed.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/atr.ts");
process.exitCode = await main(process.argv.slice(2));
