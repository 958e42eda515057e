/* The benchmarks' guard extension, in C so its own start-up (~1 ms) doesn't hide zot's: a tool_call
 * interceptor that blocks any call whose frame mentions "rm -rf" and allows everything else. It
 * is what test/fixtures/agent/shguard does in sh, without a shell interpreter per line.
 * bench/zot-vs-go.ts compiles it with `cc -O2` into a temporary extension directory. */
#include <stdio.h>
#include <string.h>

int main(void) {
  static char line[1 << 20];
  setvbuf(stdout, NULL, _IOLBF, 0);
  puts("{\"type\":\"hello\",\"name\":\"cguard\",\"version\":\"1.0.0\"}");
  puts("{\"type\":\"subscribe\",\"intercept\":[\"tool_call\"]}");
  puts("{\"type\":\"ready\"}");
  while (fgets(line, sizeof line, stdin)) {
    if (strstr(line, "\"type\":\"shutdown\"")) return 0;
    if (!strstr(line, "\"type\":\"event_intercept\"")) continue;
    int refuse = strstr(line, "rm -rf") != NULL;
    char *id = strstr(line, "\"id\":\"");
    if (!id) continue;
    id += 6;
    char *end = strchr(id, '"');
    if (!end) continue;
    *end = '\0';
    if (refuse)
      printf("{\"type\":\"event_intercept_response\",\"id\":\"%s\",\"block\":true,\"reason\":\"cguard refuses rm -rf\"}\n", id);
    else
      printf("{\"type\":\"event_intercept_response\",\"id\":\"%s\"}\n", id);
  }
  return 0;
}
