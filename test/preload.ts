// Loaded before every test file of a `bun test` run (bunfig.toml): what the whole run shares.
import { afterAll } from "bun:test";
import { removeTempDirs } from "./helpers/temp.ts";

afterAll(removeTempDirs);
