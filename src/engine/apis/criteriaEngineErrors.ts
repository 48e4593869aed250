/**
 * A funding project that cannot be evaluated: its id is not a plain folder name, its
 * folder does not exist, or it holds no documents. Names the project and the folder tried.
 */
export class ProjectError extends Error {
  override readonly name: string = "ProjectError";

  constructor(
    /** The project id as given. */
    readonly projectId: string,
    /** The folder looked in (absolute). */
    readonly folder: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`project '${projectId}' (${folder}): ${reason}`, options);
  }
}

/** The project folder does not exist under the data directory (or is not a folder). */
export class ProjectNotFoundError extends ProjectError {
  override readonly name = "ProjectNotFoundError";

  constructor(projectId: string, folder: string, options?: { cause?: unknown }) {
    super(projectId, folder, "no such project folder", options);
  }
}

/** The project folder holds no .md, .txt or .json document, so there is no evidence to judge. */
export class EmptyProjectError extends ProjectError {
  override readonly name = "EmptyProjectError";

  constructor(projectId: string, folder: string) {
    super(projectId, folder, "the folder holds no documents (.md, .txt or .json)");
  }
}

/** A project id that is not a single folder name (empty, a path, `..`). */
export class InvalidProjectIdError extends ProjectError {
  override readonly name = "InvalidProjectIdError";

  constructor(projectId: string, folder: string) {
    super(projectId, folder, "a project id is one folder name, without '/', '\\' or '..'");
  }
}
