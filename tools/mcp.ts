/**
 * `npm run mcp`: the Paykit MCP server over stdio, for AI coding tools (MCP clients) that start
 * their servers as processes. It acts as one sandbox platform, with its API credentials:
 *
 *   npm run mcp -- --token-id <id> --secret <secret> [--url http://127.0.0.1:8080/2025-10-13]
 *
 * Credentials default to SANDBOX_TOKEN_ID / SANDBOX_TOKEN_SECRET, the URL to PAYKIT_URL. A
 * production token or deployment is refused at start. Tools and client configuration:
 * docs/sandbox-tools.md. Nothing but MCP messages goes to stdout (diagnostics go to stderr).
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { assertSandboxPlatform, createPaykitMcpServer, httpPaykitApi } from '../apps/gateway/src/mcp/paykit-mcp-server';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { url: { type: 'string' }, 'token-id': { type: 'string' }, secret: { type: 'string' } } });
  const tokenId = values['token-id'] ?? process.env.SANDBOX_TOKEN_ID;
  const secret = values.secret ?? process.env.SANDBOX_TOKEN_SECRET;
  if (!tokenId || !secret) {
    process.stderr.write('npm run mcp needs a sandbox token: --token-id <id> --secret <secret> (or SANDBOX_TOKEN_ID and SANDBOX_TOKEN_SECRET)\n');
    process.exit(1);
  }
  const api = httpPaykitApi(values.url ?? process.env.PAYKIT_URL ?? 'http://127.0.0.1:8080/2025-10-13', { tokenId, secret });
  await assertSandboxPlatform(api);
  const server = createPaykitMcpServer(api);
  await server.connect(new StdioServerTransport());
  process.stderr.write('Paykit MCP server ready on stdio.\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  });
}
