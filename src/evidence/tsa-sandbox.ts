/**
 * Sandbox time: the policy under which `geo sandbox`'s test time-stamp authority issues its tokens
 * (src/sandbox/tsa.ts): id-TEST-certPolicyEight, of the arc RFC 7229 sets aside for testing, which
 * no authority in service issues under. A token that names it is shown as sandbox time wherever
 * geo shows a timestamp. The mark only ever lowers what a token is worth: a real token cannot be
 * made to name it without breaking its signature, and one that does is still no more than that.
 */
/** Where `geo sandbox` serves that authority and its throwaway CA (sandbox/tsa-http.ts). */
export const TSA_PATH = '/__sandbox/tsa';
export const TSA_CA_PATH = '/__sandbox/tsa/ca.pem';

export const SANDBOX_TSA_POLICY = '1.3.6.1.5.5.7.13.8';

/** Whether a token's TSTInfo policy is the sandbox TSA's. */
export const isSandboxTime = (policy: string | undefined): boolean => policy === SANDBOX_TSA_POLICY;

/** Whether a logged TSA URL is `geo sandbox`'s authority (the log keeps the URL, not the token's policy). */
export const isSandboxTsaUrl = (url: string): boolean => url.replace(/\/+$/, '').endsWith(TSA_PATH);
