//===- ModuleImports.cpp - Device functions and constants from other files -===//
//
// 1. Walk the module's top-level imports. One that names a file of the
//    program (relative, or a sibling `.pyk`/`.py` file) is resolved: the
//    file is read, parsed and resolved the same way (depth first; a file
//    already being resolved is a cycle), and the import becomes a binding:
//    a name to a definition of that file, or a name to the whole file
//    (`from . import config`, `import pkg.util as u`).
// 2. Give every imported definition (device function or constant) its name
//    in the spliced module: its own, unless another file defines the same
//    name, then `<file stem>_<name>`.
// 3. Rewrite each file's references to those names (`clamp`, `c` bound by
//    `as c`, `config.TPB`) to the spliced names; a function's parameters
//    and locals shadow module names, as in Python.
// 4. Splice: the imported files' definitions, dependencies first, then the
//    module's own statements without the resolved imports.
//
//===----------------------------------------------------------------------===//
#include "ModuleImports.h"

#include "Parser.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <deque>
#include <map>
#include <set>

namespace pyk {
namespace {

using namespace ast;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

/// A module pykc compiles in: its definitions are spliced in as a file's.
struct LibraryModule {
  const char *module;
  const char *fileName;
  const char *text;
};

const LibraryModule libraryModules[] = {
#include "LibraryModules.inc"
};

const LibraryModule *libraryModule(const std::string &module) {
  for (const LibraryModule &library : libraryModules)
    if (module == library.module)
      return &library;
  return nullptr;
}

struct LoadedFile {
  std::string path;
  std::string stem;
  const SourceFile *file = nullptr;
  Module *module = nullptr;
  /// Device functions and constants, by name: their statements.
  std::map<std::string, Stmt *> definitions;
  /// Spliced name of each definition (step 2).
  std::map<std::string, std::string> splicedNames;
  /// `from .m import x as y`: y -> (m, x).
  std::map<std::string, std::pair<LoadedFile *, std::string>> importedNames;
  /// `from . import m`, `import pkg.m as y`: y -> m.
  std::map<std::string, LoadedFile *> fileAliases;
  /// Top-level statements that were resolved imports, to drop.
  std::set<const Stmt *> resolvedImports;
};

bool isTrue(const Expr &e) {
  auto *literal = dyn_cast<BoolLiteralExpr>(&e);
  auto *number = dyn_cast<IntLiteralExpr>(&e);
  return (literal && literal->value) || (number && number->value != 0);
}

/// The last name of a decorator's callee: `cuda.jit(...)` -> jit.
std::string decoratorName(const Expr &decorator) {
  const Expr *callee = &decorator;
  if (auto *call = dyn_cast<CallExpr>(callee))
    callee = call->callee.get();
  if (auto *name = dyn_cast<NameExpr>(callee))
    return name->name;
  if (auto *attribute = dyn_cast<AttributeExpr>(callee))
    return attribute->attribute;
  return "";
}

/// A device function: `@cuda.jit(device=True)`, or Numba's CPU `@njit` /
/// `@jit`, which kernels call as device functions.
bool isDeviceFunction(const FunctionDef &def) {
  for (const ExprPtr &decorator : def.decorators) {
    const std::string name = decoratorName(*decorator);
    if (name == "njit")
      return true;
    auto *call = dyn_cast<CallExpr>(decorator.get());
    if (name == "jit" && call)
      for (const KeywordArgument &keyword : call->keywords)
        if (keyword.name == "device")
          return isTrue(*keyword.value);
    if (name == "jit" && isa<NameExpr>(*decorator) && cast<NameExpr>(*decorator).name == "jit")
      return true; // numba's own @jit
  }
  return false;
}

/// A module constant: `NAME = value` or `NAME: T = value`, not a function
/// compiled by a call (`k = cuda.jit(sig)(f)`).
std::vector<NameExpr *> constantTargets(Stmt &stmt) {
  std::vector<NameExpr *> names;
  const Expr *value = nullptr;
  if (auto *assign = dyn_cast<AssignStmt>(&stmt)) {
    value = assign->value.get();
    for (ExprPtr &target : assign->targets) {
      if (auto *name = dyn_cast<NameExpr>(target.get()))
        names.push_back(name);
      else if (auto *tuple = dyn_cast<TupleExpr>(target.get()))
        for (ExprPtr &element : tuple->elements)
          if (auto *elementName = dyn_cast<NameExpr>(element.get()))
            names.push_back(elementName);
    }
  } else if (auto *annotated = dyn_cast<AnnAssignStmt>(&stmt); annotated && annotated->value) {
    value = annotated->value.get();
    if (auto *name = dyn_cast<NameExpr>(annotated->target.get()))
      names.push_back(name);
  }
  if (auto *call = dyn_cast_or_null<CallExpr>(value); call && (isa<CallExpr>(*call->callee) ||
                                                              decoratorName(*call) == "jit"))
    return {};
  return names;
}

/// Rewrites one file's references to imported and renamed names.
class ReferenceRewriter {
public:
  explicit ReferenceRewriter(const LoadedFile &file) : file_(file) {}

  void function(FunctionDef &def) {
    shadowed_.clear();
    for (const Parameter &param : def.params)
      shadowed_.insert(param.name);
    collectAssigned(def.body);
    block(def.body);
    shadowed_.clear();
  }
  void expr(ExprPtr &slot) {
    if (!slot)
      return;
    if (auto *name = dyn_cast<NameExpr>(slot.get())) {
      if (!shadowed_.count(name->name))
        if (auto spliced = splicedNameOf(name->name))
          name->name = *spliced;
      return;
    }
    if (auto *attribute = dyn_cast<AttributeExpr>(slot.get())) {
      auto *object = dyn_cast<NameExpr>(attribute->object.get());
      auto alias = object && !shadowed_.count(object->name) ? file_.fileAliases.find(object->name)
                                                            : file_.fileAliases.end();
      if (alias == file_.fileAliases.end())
        return expr(attribute->object);
      const LoadedFile &target = *alias->second;
      auto spliced = target.splicedNames.find(attribute->attribute);
      // A name the file does not define: Sema reports 'config.NOPE' as not
      // defined.
      slot = std::make_unique<NameExpr>(attribute->range(), spliced != target.splicedNames.end()
                                                                ? spliced->second
                                                                : object->name + "." + attribute->attribute);
      return;
    }
    if (auto *subscript = dyn_cast<SubscriptExpr>(slot.get())) {
      expr(subscript->object);
      for (ExprPtr &index : subscript->indices)
        expr(index);
    } else if (auto *slice = dyn_cast<SliceExpr>(slot.get())) {
      expr(slice->lower);
      expr(slice->upper);
      expr(slice->step);
    } else if (auto *call = dyn_cast<CallExpr>(slot.get())) {
      expr(call->callee);
      for (ExprPtr &arg : call->args)
        expr(arg);
      for (KeywordArgument &keyword : call->keywords)
        expr(keyword.value);
    } else if (auto *unary = dyn_cast<UnaryExpr>(slot.get())) {
      expr(unary->operand);
    } else if (auto *binary = dyn_cast<BinaryExpr>(slot.get())) {
      expr(binary->lhs);
      expr(binary->rhs);
    } else if (auto *boolOp = dyn_cast<BoolOpExpr>(slot.get())) {
      for (ExprPtr &operand : boolOp->operands)
        expr(operand);
    } else if (auto *compare = dyn_cast<CompareExpr>(slot.get())) {
      expr(compare->first);
      for (ExprPtr &operand : compare->comparators)
        expr(operand);
    } else if (auto *tuple = dyn_cast<TupleExpr>(slot.get())) {
      for (ExprPtr &element : tuple->elements)
        expr(element);
    } else if (auto *conditional = dyn_cast<ConditionalExpr>(slot.get())) {
      expr(conditional->condition);
      expr(conditional->thenValue);
      expr(conditional->elseValue);
    }
  }

  void block(StmtList &body) {
    for (StmtPtr &s : body)
      stmt(*s);
  }

private:
  std::optional<std::string> splicedNameOf(const std::string &name) const {
    if (auto own = file_.splicedNames.find(name); own != file_.splicedNames.end())
      return own->second;
    auto imported = file_.importedNames.find(name);
    if (imported == file_.importedNames.end())
      return std::nullopt;
    const auto &[target, targetName] = imported->second;
    auto spliced = target->splicedNames.find(targetName);
    if (spliced == target->splicedNames.end())
      return std::nullopt;
    return spliced->second;
  }

  void stmt(Stmt &s) {
    if (auto *e = dyn_cast<ExprStmt>(&s)) {
      expr(e->expr);
    } else if (auto *assign = dyn_cast<AssignStmt>(&s)) {
      for (ExprPtr &target : assign->targets)
        expr(target);
      expr(assign->value);
    } else if (auto *aug = dyn_cast<AugAssignStmt>(&s)) {
      expr(aug->target);
      expr(aug->value);
    } else if (auto *annotated = dyn_cast<AnnAssignStmt>(&s)) {
      expr(annotated->annotation);
      expr(annotated->value);
    } else if (auto *branch = dyn_cast<IfStmt>(&s)) {
      expr(branch->condition);
      block(branch->thenBody);
      block(branch->elseBody);
    } else if (auto *loop = dyn_cast<WhileStmt>(&s)) {
      expr(loop->condition);
      block(loop->body);
      block(loop->elseBody);
    } else if (auto *forLoop = dyn_cast<ForStmt>(&s)) {
      expr(forLoop->iterable);
      block(forLoop->body);
      block(forLoop->elseBody);
    } else if (auto *ret = dyn_cast<ReturnStmt>(&s)) {
      expr(ret->value);
    } else if (auto *assertion = dyn_cast<AssertStmt>(&s)) {
      expr(assertion->condition);
    }
  }

  void collectAssigned(const StmtList &body) {
    auto target = [&](const Expr &e) {
      if (auto *name = dyn_cast<NameExpr>(&e))
        shadowed_.insert(name->name);
      else if (auto *tuple = dyn_cast<TupleExpr>(&e))
        for (const ExprPtr &element : tuple->elements)
          if (auto *elementName = dyn_cast<NameExpr>(element.get()))
            shadowed_.insert(elementName->name);
    };
    for (const StmtPtr &s : body) {
      if (auto *assign = dyn_cast<AssignStmt>(s.get()))
        for (const ExprPtr &t : assign->targets)
          target(*t);
      else if (auto *aug = dyn_cast<AugAssignStmt>(s.get()))
        target(*aug->target);
      else if (auto *annotated = dyn_cast<AnnAssignStmt>(s.get()))
        target(*annotated->target);
      else if (auto *branch = dyn_cast<IfStmt>(s.get())) {
        collectAssigned(branch->thenBody);
        collectAssigned(branch->elseBody);
      } else if (auto *loop = dyn_cast<WhileStmt>(s.get())) {
        collectAssigned(loop->body);
        collectAssigned(loop->elseBody);
      } else if (auto *forLoop = dyn_cast<ForStmt>(s.get())) {
        target(*forLoop->target);
        collectAssigned(forLoop->body);
        collectAssigned(forLoop->elseBody);
      }
    }
  }

  const LoadedFile &file_;
  std::set<std::string> shadowed_;
};

class ImportResolver {
public:
  ImportResolver(DiagnosticEngine &diags, ImportedFiles &imported) : diags_(diags), imported_(imported) {}

  void run(Module &module, const SourceFile &file) {
    LoadedFile &main = files_.emplace_back();
    main.path = canonical(file.name());
    main.stem = llvm::sys::path::stem(file.name()).str();
    main.file = &file;
    main.module = &module;
    loading_.push_back(&main);
    resolveImportsOf(main);
    loading_.pop_back();
    if (done_.empty())
      return;
    nameDefinitions(main);
    for (LoadedFile *imported : done_)
      rewrite(*imported, /*own=*/true);
    rewrite(main, /*own=*/false);
    splice(main);
  }

private:
  static std::string canonical(const std::string &path) {
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(path, real))
      return path;
    return std::string(real);
  }

  /// `dir/a/b.pyk`, then `dir/a/b.py`; the paths tried are added to `tried`.
  static std::optional<std::string> findIn(llvm::StringRef dir, const std::string &dotted,
                                           std::vector<std::string> &tried) {
    llvm::SmallString<256> base(dir);
    llvm::StringRef rest(dotted);
    while (!rest.empty()) {
      auto [part, tail] = rest.split('.');
      llvm::sys::path::append(base, part);
      rest = tail;
    }
    for (const char *extension : {".pyk", ".py"}) {
      std::string candidate = std::string(base) + extension;
      tried.push_back(candidate);
      if (llvm::sys::fs::is_regular_file(candidate))
        return candidate;
    }
    return std::nullopt;
  }

  /// As the compilation named the file, so that paths in messages read as
  /// the user wrote them.
  static std::string directoryOf(const LoadedFile &file) {
    llvm::StringRef dir = llvm::sys::path::parent_path(file.file->name());
    return dir.empty() ? "." : dir.str();
  }

  static std::string listed(const std::vector<std::string> &tried) {
    std::string text;
    for (const std::string &path : tried)
      text += (text.empty() ? "" : ", ") + path;
    return text;
  }

  void resolveImportsOf(LoadedFile &file) {
    for (StmtPtr &s : file.module->body) {
      if (auto *from = dyn_cast<ImportFromStmt>(s.get()))
        resolveImportFrom(file, *from);
      else if (auto *import = dyn_cast<ImportStmt>(s.get()))
        resolveImport(file, *import);
    }
  }

  // import_from: 'from' ('.'* dotted_name | '.'+) 'import' import_as_names
  void resolveImportFrom(LoadedFile &file, ImportFromStmt &stmt) {
    if (stmt.importsAll || stmt.module == "__future__")
      return;
    if (stmt.level == 0) {
      if (const LibraryModule *library = libraryModule(stmt.module))
        return resolveLibraryImportFrom(file, stmt, *library);
      if (stmt.module == "numba.cuda")
        return resolveLibraryAliases(file, stmt);
    }
    std::string dir = directoryOf(file);
    for (unsigned up = 1; up < stmt.level; ++up)
      dir = llvm::sys::path::parent_path(dir).str();
    std::vector<std::string> tried;
    auto path = stmt.module.empty() ? std::nullopt : findIn(dir, stmt.module, tried);
    llvm::SmallString<256> package(dir);
    for (llvm::StringRef rest(stmt.module); !rest.empty();) {
      auto [part, tail] = rest.split('.');
      llvm::sys::path::append(package, part);
      rest = tail;
    }
    if (!path && (stmt.level > 0 || !stmt.module.empty()) && llvm::sys::fs::is_directory(package)) {
      // from . import config, from .pkg import util: each name is a file.
      // After an error the statement stays, and Sema keeps the uses of its
      // names silent.
      const std::string shownPackage =
          std::string(stmt.level, '.') + stmt.module + (stmt.module.empty() ? "" : ".");
      bool allLoaded = true;
      for (const ImportedName &name : stmt.names) {
        std::vector<std::string> triedHere;
        auto namePath = findIn(std::string(package), name.name, triedHere);
        if (!namePath) {
          diags_.error(name.range) << "cannot find module '" << shownPackage << name.name << "': tried "
                                   << listed(triedHere);
          allLoaded = false;
          continue;
        }
        if (LoadedFile *target = load(*namePath, name.range))
          file.fileAliases[name.asName.empty() ? name.name : name.asName] = target;
        else
          allLoaded = false;
      }
      if (allLoaded)
        file.resolvedImports.insert(&stmt);
      return;
    }
    if (!path) {
      if (stmt.level > 0) {
        diags_.error(stmt.moduleRange.isValid() ? stmt.moduleRange : stmt.range())
            << "cannot find module '" << std::string(stmt.level, '.') << stmt.module << "': tried " << listed(tried);
      }
      return; // numba, math, a host library: Sema's
    }
    LoadedFile *target = load(*path, stmt.moduleRange.isValid() ? stmt.moduleRange : stmt.range());
    if (!target) {
      // Reported. A name of a file in the cycle is that file's own; else
      // the statement stays, as relative, so Sema keeps its uses silent.
      if (inCycle_)
        file.resolvedImports.insert(&stmt);
      stmt.level = std::max(stmt.level, 1u);
      return;
    }
    file.resolvedImports.insert(&stmt);
    for (const ImportedName &name : stmt.names) {
      if (!target->definitions.count(name.name)) {
        diags_.error(name.range) << "'" << llvm::sys::path::filename(*path).str()
                                 << "' defines no device function or constant '" << name.name << "'";
        continue;
      }
      file.importedNames[name.asName.empty() ? name.name : name.asName] = {target, name.name};
    }
  }

  /// `from numba.cuda.random import xoroshiro128p_uniform_float32, ...`:
  /// its device functions are bound; its other names (the state type, the
  /// host functions) stay in the statement for Sema.
  void resolveLibraryImportFrom(LoadedFile &file, ImportFromStmt &stmt, const LibraryModule &library) {
    LoadedFile *target = loadLibrary(library);
    if (!target)
      return;
    std::vector<ImportedName> kept;
    for (const ImportedName &name : stmt.names) {
      if (target->definitions.count(name.name))
        file.importedNames[name.asName.empty() ? name.name : name.asName] = {target, name.name};
      else
        kept.push_back(name);
    }
    if (kept.empty())
      file.resolvedImports.insert(&stmt);
    stmt.names = std::move(kept);
  }

  /// `from numba.cuda import random`: `random.xoroshiro128p_next(...)`.
  void resolveLibraryAliases(LoadedFile &file, ImportFromStmt &stmt) {
    std::vector<ImportedName> kept;
    for (const ImportedName &name : stmt.names) {
      const LibraryModule *library = libraryModule(stmt.module + "." + name.name);
      LoadedFile *target = library ? loadLibrary(*library) : nullptr;
      if (target)
        file.fileAliases[name.asName.empty() ? name.name : name.asName] = target;
      else
        kept.push_back(name);
    }
    if (kept.empty())
      file.resolvedImports.insert(&stmt);
    stmt.names = std::move(kept);
  }

  // import_name: 'import' dotted_as_names
  void resolveImport(LoadedFile &file, ImportStmt &stmt) {
    std::vector<ImportedName> kept;
    for (const ImportedName &name : stmt.names) {
      // `import numba.cuda.random as rng`: `rng.xoroshiro128p_next(...)`;
      // `import cmath`: `cmath.exp(z)`.
      const LibraryModule *library = libraryModule(name.name);
      const bool dotted = name.name.find('.') != std::string::npos;
      if (library && (!name.asName.empty() || !dotted)) {
        if (LoadedFile *target = loadLibrary(*library))
          file.fileAliases[name.asName.empty() ? name.name : name.asName] = target;
        continue;
      }
      // `import pkg.util` from inside pkg/ names a file of an enclosing
      // directory: look in this one and its parents.
      std::vector<std::string> tried;
      std::optional<std::string> path;
      for (std::string dir = directoryOf(file); !path && !dir.empty();) {
        path = findIn(dir, name.name, tried);
        std::string parent = llvm::sys::path::parent_path(dir).str();
        if (parent == dir)
          break;
        dir = parent;
      }
      if (!path) {
        kept.push_back(name);
        continue;
      }
      if (name.asName.empty() && name.name.find('.') != std::string::npos) {
        diags_.error(name.range) << "import '" << name.name << "' under a name, as in 'import " << name.name
                                 << " as " << name.name.substr(name.name.rfind('.') + 1) << "'";
        continue;
      }
      if (LoadedFile *target = load(*path, name.range))
        file.fileAliases[name.asName.empty() ? name.name : name.asName] = target;
    }
    if (kept.size() == stmt.names.size())
      return;
    if (kept.empty())
      file.resolvedImports.insert(&stmt);
    stmt.names = std::move(kept);
  }

  /// The file at `path`, read, parsed and resolved; null after an error,
  /// reported at `importedAt`.
  LoadedFile *load(const std::string &path, SourceRange importedAt) {
    const std::string real = canonical(path);
    inCycle_ = false;
    for (size_t i = 0; i < loading_.size(); ++i) {
      if (loading_[i]->path != real)
        continue;
      std::string chain;
      for (size_t j = i; j < loading_.size(); ++j)
        chain += llvm::sys::path::filename(loading_[j]->path).str() + " imports ";
      diags_.error(importedAt) << "these imports make a cycle: " << chain
                               << llvm::sys::path::filename(real).str();
      inCycle_ = true;
      return nullptr;
    }
    if (auto it = byPath_.find(real); it != byPath_.end())
      return it->second;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      diags_.error(importedAt) << "cannot read '" << path << "': " << buffer.getError().message();
      return nullptr;
    }
    imported_.paths.push_back(path);
    return parseAndResolve(path, real, (*buffer)->getBuffer().str());
  }

  /// A library module, parsed once; it is named `<pykc>/FILE` in messages
  /// and line directives, and is no file of the build's dependencies.
  LoadedFile *loadLibrary(const LibraryModule &library) {
    const std::string name = std::string("<pykc>/") + library.fileName;
    if (auto it = byPath_.find(name); it != byPath_.end())
      return it->second;
    return parseAndResolve(name, name, library.text);
  }

  LoadedFile *parseAndResolve(const std::string &path, const std::string &real, std::string text) {
    const auto id = static_cast<uint32_t>(imported_.files.size() + 1);
    imported_.files.push_back(std::make_unique<SourceFile>(path, std::move(text), id));
    const SourceFile &source = *imported_.files.back();
    diags_.addFile(source);
    std::unique_ptr<Module> module = parseModule(source, diags_);
    if (!module)
      return nullptr;
    LoadedFile &file = files_.emplace_back();
    file.path = real;
    file.stem = llvm::sys::path::stem(path).str();
    file.file = &source;
    file.module = module.get();
    imported_.modules.push_back(std::move(module));
    byPath_[real] = &file;
    loading_.push_back(&file);
    resolveImportsOf(file);
    loading_.pop_back();
    for (StmtPtr &s : file.module->body) {
      if (auto *def = dyn_cast<FunctionDef>(s.get()); def && isDeviceFunction(*def))
        file.definitions[def->name] = def;
      for (NameExpr *name : constantTargets(*s))
        file.definitions[name->name] = s.get();
    }
    done_.push_back(&file);
    return &file;
  }

  // Step 2.
  void nameDefinitions(const LoadedFile &main) {
    std::map<std::string, int> uses;
    for (const StmtPtr &s : main.module->body) {
      if (auto *def = dyn_cast<FunctionDef>(s.get()))
        ++uses[def->name];
      for (NameExpr *name : constantTargets(*s))
        ++uses[name->name];
    }
    for (const LoadedFile *file : done_)
      for (const auto &[name, stmt] : file->definitions)
        ++uses[name];
    for (LoadedFile *file : done_) {
      for (const auto &[name, stmt] : file->definitions) {
        std::string spliced = name;
        for (int n = 1; uses[spliced] > 1 || (spliced != name && uses.count(spliced)); ++n)
          spliced = file->stem + "_" + name + (n > 1 ? std::to_string(n) : "");
        if (spliced != name)
          uses[spliced] = 1;
        file->splicedNames[name] = spliced;
      }
    }
  }

  // Step 3. `own`: rename the file's own definitions too.
  void rewrite(LoadedFile &file, bool own) {
    ReferenceRewriter rewriter(file);
    for (StmtPtr &s : file.module->body) {
      if (auto *def = dyn_cast<FunctionDef>(s.get())) {
        if (own && !isSplicedDefinition(file, *def))
          continue; // a kernel of the imported file: not compiled here
        rewriter.function(*def);
        if (own)
          def->name = file.splicedNames.at(def->name);
        continue;
      }
      const std::vector<NameExpr *> targets = constantTargets(*s);
      if (targets.empty())
        continue;
      if (auto *assign = dyn_cast<AssignStmt>(s.get()))
        rewriter.expr(assign->value);
      else if (auto *annotated = dyn_cast<AnnAssignStmt>(s.get()))
        rewriter.expr(annotated->value);
      if (own)
        for (NameExpr *name : targets)
          name->name = file.splicedNames.at(name->name);
    }
  }

  // Step 4.
  void splice(LoadedFile &main) {
    StmtList body;
    for (LoadedFile *file : done_) {
      for (StmtPtr &s : file->module->body) {
        const bool keptImport = isa<ImportStmt, ImportFromStmt>(*s) && !file->resolvedImports.count(s.get());
        auto *def = dyn_cast<FunctionDef>(s.get());
        const bool definition = def ? isSplicedDefinition(*file, *def) : !constantTargets(*s).empty();
        if (keptImport || definition)
          body.push_back(std::move(s));
      }
    }
    for (StmtPtr &s : main.module->body)
      if (!main.resolvedImports.count(s.get()))
        body.push_back(std::move(s));
    main.module->body = std::move(body);
  }

  static bool isSplicedDefinition(const LoadedFile &file, const FunctionDef &def) {
    for (const auto &[name, stmt] : file.definitions)
      if (stmt == &def)
        return true;
    return false;
  }

  DiagnosticEngine &diags_;
  ImportedFiles &imported_;
  std::deque<LoadedFile> files_;
  std::vector<LoadedFile *> loading_;
  std::map<std::string, LoadedFile *> byPath_;
  /// Imported files in the order their resolution finished: every file
  /// after those it imports.
  std::vector<LoadedFile *> done_;
  /// Whether the last load failed on a cycle.
  bool inCycle_ = false;
};

} // namespace

void resolveModuleImports(ast::Module &module, const SourceFile &file, DiagnosticEngine &diags,
                          ImportedFiles &imported) {
  ImportResolver(diags, imported).run(module, file);
}

} // namespace pyk
