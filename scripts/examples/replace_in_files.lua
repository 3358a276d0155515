-- replace_in_files: one literal replacement across every file that holds it, all files or
-- none, through multi_edit: the approval shows one diff of the whole change, and one undo
-- reverts it.
return jido.tool{
  name = "replace_in_files",
  description = "Replaces every occurrence of a literal text in all the files under a directory "
    .. "that contain it (optionally only files matching globs such as *.go), as one all-or-nothing "
    .. "change. Use dry_run to see the diff first.",
  params = {
    type = "object",
    properties = {
      old = {type = "string", description = "the exact text to replace"},
      new = {type = "string", description = "the replacement text"},
      path = {type = "string", default = ".", description = "directory to search, relative to the project root"},
      include = {type = "array", items = {type = "string"}, description = "only files matching one of these globs"},
      dry_run = {type = "boolean", default = false, description = "return the diff without changing any file"},
    },
    required = {"old", "new"},
  },
  mutating = true,
  run = function(args)
    local found, err = jido.search{
      query = args.old, case_sensitive = true, path = args.path, include_paths = args.include,
      output_mode = "files_with_matches", max_results = 500,
    }
    if not found then
      return nil, err
    end
    local edits = {}
    for _, path in ipairs(found.files or {}) do
      local read, rerr = jido.read_file{path = path, limit = 1} -- edits need a prior read
      if not read then
        return nil, rerr
      end
      edits[#edits + 1] = {path = path, old_string = args.old, new_string = args.new, replace_all = true}
    end
    if #edits == 0 then
      return {files = {}, changed = 0, note = "no file contains the text"}
    end
    local res, merr = jido.multi_edit{edits = edits, dry_run = args.dry_run}
    if not res then
      return nil, merr
    end
    return {files = found.files, changed = #edits, dry_run = args.dry_run, result = res}
  end,
}
