//===- LLVMEmitterArrays.cpp - Element addresses and view locals ----------===//
//
// An element's address from an array's data pointer and its extents (C
// order) or strides (a strided view). A view local (IR Memory::View) lives
// in allocas: its data pointer (generic), extents and strides, which
// Declare and Assign write from an ArrayView and every use loads (mem2reg
// keeps them in registers).
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"

namespace pyk::llvmgen::emit {

std::vector<llvm::Value *> FunctionEmitter::indexValues(const std::vector<ExprPtr> &indices) {
  std::vector<llvm::Value *> values;
  for (const ExprPtr &index : indices)
    values.push_back(expr(*index));
  return values;
}

/// data + row-major offset of `indices`, as an inbounds GEP. The offset of
/// an element that exists is below the array's size, and so is each partial
/// sum of it: the arithmetic is nsw. (An index out of bounds is undefined
/// unchecked, as in CUDA; checked mode tests the indices before this.)
/// With pykc --index-bits=32 the launch has checked that every array has
/// fewer than 2^31 elements, so the offset may be computed in 32 bits:
/// mad.lo.s32 and mul.wide.s32, as for C's `int` indices, instead of 64-bit
/// multiplies.
llvm::Value *FunctionEmitter::elementAddress(const Variable *array, const std::vector<llvm::Value *> &indices,
                                             bool narrowOffset, int field) {
  const ArrayValue value = arrayValue(array);
  if (const RecordType *record = array->type.record) {
    // A record's field: data + i * size + the field's offset, in bytes,
    // always in 64 bits (--index-bits=32 bounds the count of records, not
    // of their bytes).
    llvm::Value *offset = builder_.CreateNSWAdd(builder_.CreateNSWMul(indices[0], builder_.getInt64(record->size)),
                                                builder_.getInt64(record->fields[static_cast<size_t>(field)].offset));
    return builder_.CreateInBoundsGEP(builder_.getInt8Ty(), value.data, offset);
  }
  if (!array->type.contiguous) {
    // A strided view: i * s0 + j * s1 + ... elements from its data.
    llvm::Value *offset = builder_.CreateNSWMul(indices[0], value.strides[0]);
    for (size_t axis = 1; axis < indices.size(); ++axis)
      offset = builder_.CreateNSWAdd(offset, builder_.CreateNSWMul(indices[axis], value.strides[axis]));
    return builder_.CreateGEP(memoryType(array->type.scalar, context_), value.data, offset);
  }
  const bool narrow = narrowOffset && narrowsOffsets();
  auto width = [&](llvm::Value *v) { return narrow ? builder_.CreateTrunc(v, builder_.getInt32Ty()) : v; };
  llvm::Value *offset = width(indices[0]);
  for (size_t axis = 1; axis < indices.size(); ++axis)
    offset = builder_.CreateNSWAdd(builder_.CreateNSWMul(offset, width(value.extents[axis])), width(indices[axis]));
  return builder_.CreateInBoundsGEP(memoryType(array->type.scalar, context_), value.data, offset);
}

unsigned FunctionEmitter::elementAlignment(const Variable *array, int field) {
  if (array->type.record)
    return array->type.record->fieldAlignment(static_cast<size_t>(field));
  return byteWidth(array->type.scalar);
}

ArrayValue FunctionEmitter::arrayValue(const Variable *var) {
  auto slots = viewSlots_.find(var);
  if (slots == viewSlots_.end())
    return arrays_.at(var);
  ArrayValue value;
  value.data = builder_.CreateLoad(llvm::PointerType::get(context_, AddressSpace::Generic), slots->second.data,
                                   var->name);
  for (llvm::Value *slot : slots->second.extents)
    value.extents.push_back(builder_.CreateLoad(builder_.getInt64Ty(), slot));
  for (llvm::Value *slot : slots->second.strides)
    value.strides.push_back(builder_.CreateLoad(builder_.getInt64Ty(), slot));
  return value;
}

void FunctionEmitter::allocateViewSlots() {
  for (const Variable *var : function_.variables()) {
    if (!var->isView())
      continue;
    ArrayValue slots;
    slots.data = builder_.CreateAlloca(llvm::PointerType::get(context_, AddressSpace::Generic), nullptr, var->name);
    for (unsigned axis = 0; axis < var->type.rank; ++axis)
      slots.extents.push_back(
          builder_.CreateAlloca(builder_.getInt64Ty(), nullptr, var->name + ".shape" + std::to_string(axis)));
    if (!var->type.contiguous)
      for (unsigned axis = 0; axis < var->type.rank; ++axis)
        slots.strides.push_back(
            builder_.CreateAlloca(builder_.getInt64Ty(), nullptr, var->name + ".stride" + std::to_string(axis)));
    viewSlots_[var] = slots;
  }
}

/// The data pointer is generic, so that one view local may name arrays in
/// different memories (src, dst = dst, src across shared and global); after
/// inlining, NVPTX infers the memory where it is one.
void FunctionEmitter::storeView(const Variable *var, const ArrayView *view) {
  const ArrayValue &slots = viewSlots_.at(var);
  auto *generic = llvm::PointerType::get(context_, AddressSpace::Generic);
  llvm::Value *data = llvm::ConstantPointerNull::get(generic);
  std::vector<llvm::Value *> extents(var->type.rank, builder_.getInt64(0));
  std::vector<llvm::Value *> strides(var->type.contiguous ? 0 : var->type.rank, builder_.getInt64(0));
  if (view) {
    const ArrayValue base = arrayValue(view->base);
    llvm::Value *offset = expr(*view->offset);
    for (size_t axis = 0; axis < extents.size(); ++axis)
      extents[axis] = expr(*view->extents[axis]);
    for (size_t axis = 0; axis < strides.size(); ++axis)
      strides[axis] = expr(*view->strides[axis]);
    // A view may start past the end of an empty slice, so no inbounds.
    data = builder_.CreateAddrSpaceCast(
        builder_.CreateGEP(memoryType(var->type.scalar, context_), base.data, offset), generic);
  }
  builder_.CreateStore(data, slots.data);
  for (size_t axis = 0; axis < extents.size(); ++axis)
    builder_.CreateStore(extents[axis], slots.extents[axis]);
  for (size_t axis = 0; axis < strides.size(); ++axis)
    builder_.CreateStore(strides[axis], slots.strides[axis]);
}

} // namespace pyk::llvmgen::emit
