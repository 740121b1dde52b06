// `verdict user create NAME --space S --role R [--password-stdin]`, `verdict user list [--space S] [--json]`,
// `verdict user role NAME --space S --role R`, `verdict user password NAME [--password-stdin]`,
// `verdict user remove NAME [--space S]`: users and their roles per
// space, on the store of DATABASE_URL. A created user without --password-stdin gets a one-time password, printed
// once; no output ever shows a password hash.
import { Option } from 'commander';
import type { Command } from 'commander';
import { MEMBER_ROLES as ROLES } from '../../service/roles.ts';
import { InputError } from '../errors.ts';
import { storeCommand } from './space.ts';

/** The password piped to stdin: one line (a trailing newline is not part of it). */
async function passwordFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (password === '') throw new InputError('--password-stdin: nothing was read from stdin (pipe the password in: printf %s "$PASSWORD" | verdict user create ...)');
  if (password.includes('\n')) throw new InputError('--password-stdin: the password must be one line');
  return password;
}

const roleOption = () => new Option('--role <role>', 'the role in the space').choices([...ROLES]).makeOptionMandatory();

export function register(program: Command): void {
  const user = program.command('user').description('manage users and their roles per space (Studio sign-in)');
  user
    .command('create')
    .description('create a user with a role in a space; prints a one-time password unless --password-stdin')
    .argument('<name>', 'username: letters, digits or "._@+-"')
    .requiredOption('--space <space>', 'the space the user joins')
    .addOption(roleOption())
    .option('--password-stdin', 'read the password from stdin instead of generating one')
    .action(async (name: string, options: { space: string; role: string; passwordStdin?: boolean }) => {
      const password = options.passwordStdin ? await passwordFromStdin() : undefined;
      const created = await storeCommand((services) => services.users.create(name, options.space, options.role, password));
      const lines = [`User "${created.user.username}" created: ${created.role} of space "${options.space}".`];
      if (created.oneTimePassword !== undefined) lines.push(`Password (shown once; store it now): ${created.oneTimePassword}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
  user
    .command('list')
    .description('list users with their spaces and roles')
    .option('--space <space>', 'only the members of this space')
    .option('--json', 'print a JSON array')
    .action(async (options: { space?: string; json?: boolean }) => {
      const users = await storeCommand((services) => services.users.list(options.space));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(users)}\n`);
        return;
      }
      for (const u of users) {
        const spaces = u.spaces.map((s) => `${s.space}:${s.role}`).join(',') || '-';
        process.stdout.write(`${u.username}\t${u.source}\t${spaces}\n`);
      }
    });
  user
    .command('role')
    .description("set a user's role in a space (adds them to the space when not a member)")
    .argument('<name>', 'username')
    .requiredOption('--space <space>', 'the space')
    .addOption(roleOption())
    .action(async (name: string, options: { space: string; role: string }) => {
      const member = await storeCommand((services) => services.users.assignRole(options.space, name, options.role));
      process.stdout.write(`User "${member.user.username}" is ${member.role} of space "${options.space}".\n`);
    });
  user
    .command('password')
    .description("reset a user's password (a one-time password is printed unless --password-stdin); their sessions end")
    .argument('<name>', 'username')
    .option('--password-stdin', 'read the new password from stdin instead of generating one')
    .action(async (name: string, options: { passwordStdin?: boolean }) => {
      const password = options.passwordStdin ? await passwordFromStdin() : undefined;
      const reset = await storeCommand((services) => services.users.resetPassword(name, password));
      const lines = [`Password of "${reset.user.username}" set; their sessions have ended.`];
      if (reset.oneTimePassword !== undefined) lines.push(`Password (shown once; store it now): ${reset.oneTimePassword}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
  user
    .command('remove')
    .description('remove a user from a space, or (without --space) delete the user with all their sessions')
    .argument('<name>', 'username')
    .option('--space <space>', 'only remove the user from this space')
    .action(async (name: string, options: { space?: string }) => {
      await storeCommand((services) => (options.space === undefined ? services.users.remove(name) : services.users.removeMember(options.space, name)));
      process.stdout.write(options.space === undefined ? `User "${name}" deleted.\n` : `User "${name}" removed from space "${options.space}".\n`);
    });
}
