// Postinstall: faiss-node's own install script downloads a prebuild from the internet, which these
// machines cannot reach, so it is disabled in package.json (allowScripts). If a prebuild tarball built
// by scripts/build-faiss-node.sh exists under vendor/prebuilds, unpack it into node_modules/faiss-node.
// Without it the project runs on the exact in-process vector index (identical results).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const pkgDir = "node_modules/faiss-node";
const tarball = "vendor/prebuilds/faiss-node-v0.5.1-napi-v8-linux-x64.tar.gz";
if (!existsSync(pkgDir) || existsSync(`${pkgDir}/build/Release/faiss-node.node`)) process.exit(0);
if (!existsSync(tarball)) {
  console.log(
    "faiss-node: no local prebuild (run scripts/build-faiss-node.sh as root to build one); using the exact in-process index",
  );
  process.exit(0);
}
execFileSync("tar", ["-xzf", tarball, "-C", pkgDir], { stdio: "inherit" });
console.log("faiss-node: unpacked local prebuild");
