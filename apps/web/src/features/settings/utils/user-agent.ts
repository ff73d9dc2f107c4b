// Shared with the admin console's session and event lists.
export { describeUserAgent } from '../../../lib/user-agent';
