import type { Profile } from '../../../shared/schemas/accounts.ts';
import type { ProfileRow, UserRepository } from './user-repository.ts';

interface ProfileInput {
  education: string;
  phonenumber: string;
  img: string;
  link: string;
}

function toWireProfile(row: ProfileRow | undefined): Profile {
  if (!row) return { education: '', phonenumber: '', img: '', link: '', updatedAt: null };
  return {
    education: row.education,
    phonenumber: row.phoneNumber,
    img: row.img,
    link: row.link,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Spec §2 My Profile: one profile per signed-in user, written whole each time (the form always sends every field). */
export class ProfileService {
  readonly #users: UserRepository;
  constructor(users: UserRepository) {
    this.#users = users;
  }

  async get(userId: string): Promise<Profile> {
    return toWireProfile(await this.#users.findProfile(userId));
  }

  async save(userId: string, input: ProfileInput): Promise<Profile> {
    const row = await this.#users.upsertProfile({
      userId,
      education: input.education,
      phoneNumber: input.phonenumber,
      img: input.img,
      link: input.link,
    });
    return toWireProfile(row);
  }
}
