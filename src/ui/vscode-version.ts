/** Whether a VS Code version string (`vscode.version`, "1.139.1") is at least `major.minor`. */
export function vsCodeAtLeast(version: string, major: number, minor: number): boolean {
  const [have = 0, haveMinor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return have > major || (have === major && haveMinor >= minor);
}
