# The installed package (README.md, "Installing and using the package"; doc/library.md):
# headers, the static libraries libcont and libcont_systems with their exported targets
# libcont::libcont and libcont::systems, a CMake package (find_package(libcont)), a
# pkg-config file libcont.pc, and vicont (drivers/CMakeLists.txt).
include(CMakePackageConfigHelpers)

set(LIBCONT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/libcont)
install(EXPORT libcontTargets NAMESPACE libcont:: DESTINATION ${LIBCONT_CMAKE_DIR}
        FILE libcontTargets.cmake)
configure_package_config_file(cmake/libcontConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/libcontConfig.cmake INSTALL_DESTINATION ${LIBCONT_CMAKE_DIR})
# Before 1.0 a minor version may change the interface: 0.1.x accepts requests for 0.1.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/libcontConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/libcontConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/libcontConfigVersion.cmake
        DESTINATION ${LIBCONT_CMAKE_DIR})

# libcont.pc: the libraries are static, so Libs names what they need at link time too:
# the SUNDIALS libraries libcont links (read from the target, as the linker gets them) and
# the thread library. Cflags: the installed headers and Eigen's.
set(_pc_dirs "")
set(_pc_libs "")
get_target_property(_libcont_links libcont LINK_LIBRARIES)
foreach(_link IN LISTS _libcont_links)
  if(NOT _link MATCHES "^SUNDIALS::")
    continue()
  endif()
  get_target_property(_location ${_link} LOCATION)
  get_filename_component(_dir "${_location}" DIRECTORY)
  get_filename_component(_name "${_location}" NAME_WE)
  string(REGEX REPLACE "^lib" "" _name "${_name}")
  if(NOT _dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
    list(APPEND _pc_dirs "-L${_dir}")
  endif()
  list(APPEND _pc_libs "-l${_name}")
endforeach()
list(REMOVE_DUPLICATES _pc_dirs)
list(JOIN _pc_dirs " " _pc_dirs)
list(JOIN _pc_libs " " _pc_libs)
string(STRIP "${_pc_dirs} ${_pc_libs}" LIBCONT_PC_SUNDIALS_LIBS)
set(LIBCONT_PC_EIGEN_CFLAGS "")
get_target_property(_eigen_includes Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
foreach(_dir IN LISTS _eigen_includes)
  string(APPEND LIBCONT_PC_EIGEN_CFLAGS " -I${_dir}")
endforeach()
# Relocatable: the prefix is found from where libcont.pc lies, so that
# cmake --install --prefix DIR gives a usable file.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(LIBCONT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(LIBCONT_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(LIBCONT_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" _up "${_up}")
  set(LIBCONT_PC_PREFIX "\${pcfiledir}/${_up}")
  set(LIBCONT_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(LIBCONT_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(cmake/libcont.pc.in ${CMAKE_CURRENT_BINARY_DIR}/libcont.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/libcont.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
