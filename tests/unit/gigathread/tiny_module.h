// A small PTX module for the command processor tests: two kernels and a .global with an
// initializer. add_one(u64, u32) has a 12-byte parameter buffer (offsets 0 and 8).
#pragma once

namespace gpusoc::gigathread::testing {

inline constexpr const char* kTinyModule = R"(
.version 7.0
.target sm_80
.address_size 64

.global .align 4 .u32 counter[2] = {7, 9};

.visible .entry add_one(
	.param .u64 add_one_param_0,
	.param .u32 add_one_param_1
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [add_one_param_0];
	ld.param.u32 	%r1, [add_one_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.global.u32 	%r2, [%rd2];
	add.s32 	%r2, %r2, %r1;
	st.global.u32 	[%rd2], %r2;
	ret;
}

.visible .entry empty()
{
	ret;
}
)";

}  // namespace gpusoc::gigathread::testing
